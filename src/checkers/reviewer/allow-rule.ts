/**
 * One entry of `supervisor.reviewer.allow`, in Claude Code's permission rule syntax. A leaf: the
 * config schema validates rules with it, and must not bring the reviewer policy's shell parser
 * (shell-quote) into every start (docs/design/architecture.md, "Start-up").
 */
export type AllowRule = { ok: true; tool: string; command?: string; prefix: boolean } | { ok: false; reason: string };

/** `Tool`, `Bash(command)` or `Bash(prefix:*)` (Claude Code's permission rule syntax). */
export function parseAllowRule(rule: string): AllowRule {
  const match = /^([A-Za-z][\w-]*)(?:\((.*)\))?$/s.exec(rule.trim());
  if (!match) return { ok: false, reason: 'expected a tool name (Edit) or Bash(<command>) / Bash(<command>:*)' };
  const [, tool, spec] = match as unknown as [string, string, string | undefined];
  if (spec === undefined) return { ok: true, tool, prefix: false };
  if (tool !== 'Bash') return { ok: false, reason: `only Bash rules take a pattern; write ${tool} to allow the tool` };
  const prefix = /(:\*|\s\*)$/.test(spec);
  const command = spec.replace(/(:\*|\s\*)$/, '').trim();
  if (command === '') return { ok: false, reason: 'the command in Bash(…) is empty' };
  return { ok: true, tool, command, prefix };
}
