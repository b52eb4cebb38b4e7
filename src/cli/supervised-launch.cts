/** True for `ccc … --supervisor …` (before any `--`): the supervised launch, not a subcommand. */
export function isSupervisedLaunch(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--supervisor');
}
