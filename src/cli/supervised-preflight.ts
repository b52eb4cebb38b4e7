/**
 * What `ccc --supervisor …` settles before anything starts: `--help` prints ccc's supervisor help
 * (claude's own stays reachable as `ccc -- --help`), and a near miss of one of ccc's options is a
 * "did you mean" error rather than an option passed to claude.
 */
import { rejectOptionTypos } from './option-typos.js';
import { supervisorOptionNames, takesSupervisorValue } from './supervisor-args.js';
import { supervisorHelp } from './supervisor-help.js';

/** Exit code 0 when help was printed; undefined when the launch should go on. Throws on a typo. */
export function supervisedPreflight(argv: readonly string[], stdout: NodeJS.WritableStream): number | undefined {
  const known = [...supervisorOptionNames, '--help'];
  rejectOptionTypos(argv, known, takesSupervisorValue);
  if (wantsHelp(argv)) {
    stdout.write(supervisorHelp());
    return 0;
  }
  return undefined;
}

function wantsHelp(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') return false;
    if (takesSupervisorValue(word, argv[i + 1])) i++;
    else if (word === '--help' || word === '-h') return true;
  }
  return false;
}
