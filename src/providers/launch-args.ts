/**
 * Splits the words of a plain launch, `ccc [provider] [--] [claude args…]`.
 * A first word that is not an option names a provider: a typo then fails loudly (unknown
 * provider) instead of starting claude with the typo as its prompt; words meant for claude go
 * after `--`.
 */
export interface LaunchArgs {
  /** The provider named on the command line, if any. */
  provider?: string;
  /** Everything for claude, in order, without ccc's separating `--`. */
  claudeArgs: string[];
  /** `--supervisor` appeared before any `--`: a supervised launch (see loop/). */
  supervised: boolean;
}

export function parseLaunchArgs(argv: string[]): LaunchArgs {
  const [first, ...rest] = argv;
  if (first === undefined) return { claudeArgs: [], supervised: false };
  if (first === '--') return { claudeArgs: rest, supervised: false };
  if (first.startsWith('-')) return { claudeArgs: argv, supervised: isSupervised(argv) };
  const claudeArgs = rest[0] === '--' ? rest.slice(1) : rest;
  return { provider: first, claudeArgs, supervised: rest[0] !== '--' && isSupervised(rest) };
}

function isSupervised(words: string[]): boolean {
  const end = words.indexOf('--');
  return (end === -1 ? words : words.slice(0, end)).includes('--supervisor');
}
