/** `ccc providers`: the configured providers, the current one marked with `*`. */
import type { CccConfig } from '../config/types.js';

export function formatProviderList(config: CccConfig, configFile: string): string {
  const names = Object.keys(config.providers);
  if (names.length === 0) {
    return (
      `No providers configured. Add them to ${configFile}, for example:\n` +
      `  {"providers": {"work": {"env": {"ANTHROPIC_BASE_URL": "https://…", "ANTHROPIC_AUTH_TOKEN": "…"}}}}\n` +
      'then start claude with one: `ccc work`.\n'
    );
  }
  const width = Math.max(...names.map((n) => n.length));
  const lines = names.map((name) => {
    const mark = name === config.current_provider ? '*' : ' ';
    const url = config.providers[name]?.env?.ANTHROPIC_BASE_URL ?? '(no ANTHROPIC_BASE_URL)';
    return `${mark} ${name.padEnd(width)}  ${url}`;
  });
  const current = config.current_provider;
  if (current !== undefined && !names.includes(current)) lines.push(`(current_provider "${current}" is not among them)`);
  return `${lines.join('\n')}\n`;
}
