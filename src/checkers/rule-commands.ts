/** The commands of the pipeline's `rule` checkers: the reviewer may run them, and they verify the work. A leaf. */
import type { CccConfig, CheckerDeclaration } from '../config/types.js';

export function ruleCommandsOf(config: CccConfig): string[] {
  return config.supervisor.checkers.flatMap((declaration) => {
    const { use, options } = normalizeDeclaration(declaration);
    return use === 'rule' && Array.isArray(options.commands) ? options.commands.filter((c): c is string => typeof c === 'string') : [];
  });
}

export function normalizeDeclaration(declaration: CheckerDeclaration): { use: string; options: Record<string, unknown> } {
  if (typeof declaration === 'string') return { use: declaration, options: {} };
  const { use, ...options } = declaration;
  return { use, options };
}
