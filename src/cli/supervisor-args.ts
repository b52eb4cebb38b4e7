/**
 * The command line of `ccc [provider] --supervisor [options] [--] [claude args…]`, in one typed
 * table. Options ccc does not know are claude's and pass through untouched, in order.
 */
import { CccError } from '../errors.js';
import type { LogLevel, UserConfig } from '../config/types.js';

export interface SupervisorArgs {
  /** `-p [task]`: headless mode; '' when `-p` came without a task (it is then read from stdin). */
  task?: string;
  json: boolean;
  /** `--report` values, in order (src/reporters/ci/report-targets.ts reads them). */
  reports?: string[];
  configPath?: string;
  /** `--observe` given (port 0 = random when no port was named). */
  observe?: number;
  /** Overrides for the `flag` config layer. */
  flags: UserConfig;
  claudeArgs: string[];
}

type Handler = (value: string | undefined, out: SupervisorArgs) => void;

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error'];

/**
 * `required`: the next word is the value; `optional`: a value only after `=`; `next-word`: the
 * next word unless it is an option (claude's `-p` is a flag and the prompt may come on stdin).
 */
type ValueKind = 'required' | 'none' | 'optional' | 'next-word';

const OPTIONS: Record<string, { value: ValueKind; apply: Handler }> = {
  '--supervisor': { value: 'none', apply: () => {} },
  '-p': { value: 'next-word', apply: (v, o) => (o.task = v ?? '') },
  '--print': { value: 'next-word', apply: (v, o) => (o.task = v ?? '') },
  '--json': { value: 'none', apply: (_, o) => (o.json = true) },
  '--report': { value: 'required', apply: (v, o) => (o.reports ??= []).push(v!) },
  '--config': { value: 'required', apply: (v, o) => (o.configPath = v) },
  '--checker': {
    value: 'required',
    apply: (v, o) => {
      const checkers = (o.flags.supervisor!.checkers ??= []);
      checkers.push(v!);
    },
  },
  '--max-iterations': { value: 'required', apply: (v, o) => (o.flags.supervisor!.max_iterations = int('--max-iterations', v!, 1)) },
  '--timeout': { value: 'required', apply: (v, o) => (o.flags.supervisor!.timeout_seconds = int('--timeout', v!, 1)) },
  '--prompt': { value: 'required', apply: (v, o) => (o.flags.supervisor!.prompt_path = v) },
  '--log-level': {
    value: 'required',
    apply: (v, o) => {
      if (!LOG_LEVELS.includes(v as LogLevel)) throw usage(`--log-level must be one of ${LOG_LEVELS.join(', ')} (got "${v}")`);
      o.flags.supervisor!.log_level = v as LogLevel;
    },
  },
  '--observe': {
    value: 'optional',
    apply: (v, o) => {
      o.observe = v === undefined ? 0 : int('--observe', v, 0);
      o.flags.observer = { ...o.flags.observer, port: o.observe };
    },
  },
};

export function parseSupervisorArgs(argv: readonly string[]): SupervisorArgs {
  const out: SupervisorArgs = { json: false, flags: { supervisor: {} }, claudeArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.claudeArgs.push(...argv.slice(i + 1));
      break;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const option = OPTIONS[name];
    if (!option) {
      out.claudeArgs.push(arg);
      continue;
    }
    let value: string | undefined = eq !== -1 && name !== arg ? arg.slice(eq + 1) : undefined;
    if (option.value === 'required' && value === undefined) {
      if (i + 1 >= argv.length) throw usage(`${name} needs a value`);
      value = argv[++i];
    }
    if (option.value === 'next-word' && value === undefined && i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) value = argv[++i];
    if (option.value === 'none' && value !== undefined) throw usage(`${name} takes no value`);
    option.apply(value, out);
  }
  if (Object.keys(out.flags.supervisor!).length === 0) delete out.flags.supervisor;
  return out;
}

function int(flag: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min) throw usage(`${flag} must be a whole number >= ${min} (got "${value}")`);
  return Number(value);
}

function usage(message: string): CccError {
  return new CccError('USAGE', `${message}. See \`ccc --help\`.`);
}

/** ccc's own options of the supervised modes, as written on the command line. */
export const supervisorOptionNames: readonly string[] = Object.keys(OPTIONS);

/** True for a supervised-mode option whose value is the next word (`--max-iterations 3`). */
export function takesSupervisorValue(word: string, next?: string): boolean {
  const kind = OPTIONS[word]?.value;
  return kind === 'required' || (kind === 'next-word' && next !== undefined && !next.startsWith('-'));
}
