/**
 * The read-only commands a reviewer explores with, each with the options that would make it write a
 * file or run another program refused: `find -exec`/`-delete`/`-fprint`, `sed -i`/`w`/`e`, `rg
 * --pre`/`-z`, `sort -o`/`--compress-program`, `tree -o`, `file -C`, uniq's output file, and for
 * git everything but reading (`-c`, `--exec-path`, `-C`, pagers, external diff and textconv
 * programs, creating branches or tags).
 */
import { sedScriptPrintsOnly } from './sed-script.js';

type ReadOnlyJudgement = { ok: true } | { ok: false; reason: string };

type Judge = (args: readonly string[]) => ReadOnlyJudgement;

const ANY: Judge = () => ({ ok: true });

/** Commands judged by their arguments; absent: not a read-only command. */
const READ_ONLY: Readonly<Record<string, Judge>> = {
  cat: ANY,
  head: ANY,
  tail: ANY,
  wc: ANY,
  grep: ANY,
  ls: ANY,
  pwd: ANY,
  echo: ANY,
  diff: ANY,
  true: ANY,
  stat: ANY,
  cut: ANY,
  jq: ANY,
  find: (args) =>
    refuseWords(args, /^-(delete|exec|ok|fprint|fls)/, 'find may not delete, write or run programs (-delete, -exec…, -ok…, -fprint…, -fls)') ?? { ok: true },
  sed: judgeSed,
  rg: (args) =>
    refuseWords(args, /^--(pre|search-zip|hostname-bin)(=|$)|^--pre-glob/, 'rg may not run preprocessors or decompressors (--pre, -z)') ??
    refuseLetters(args, 'z', 'rg -z runs decompression programs') ?? { ok: true },
  tree: (args) =>
    refuseWords(args, /^--?o$|^-R$/, 'tree -o writes a file, -R writes one per folder') ??
    refuseLetters(args, 'oR', 'tree -o writes a file, -R writes one per folder') ?? { ok: true },
  file: (args) => refuseWords(args, /^--compile$/, 'file -C writes a magic file') ?? refuseLetters(args, 'C', 'file -C writes a magic file') ?? { ok: true },
  sort: (args) =>
    refuseWords(args, /^--(output|compress-program|temporary-directory)(=|$)/, 'sort may not write (-o, -T) or run a compressor') ??
    refuseLetters(args, 'oT', 'sort -o writes a file, -T writes temporary files') ?? { ok: true },
  uniq: judgeUniq,
  git: judgeGit,
};

/** The judge of a read-only command; undefined when the word names none (an own key only: never `constructor`). */
export function readOnlyJudge(command: string | undefined): Judge | undefined {
  return command !== undefined && Object.hasOwn(READ_ONLY, command) ? READ_ONLY[command] : undefined;
}

/** The first word matching `pattern` refused with `reason`; undefined when none does. */
function refuseWords(args: readonly string[], pattern: RegExp, reason: string): { ok: false; reason: string } | undefined {
  const word = args.find((a) => pattern.test(a));
  return word === undefined ? undefined : { ok: false, reason: `\`${word}\`: ${reason}` };
}

/** A short option among `letters`, alone or in a bundle (`-nz`). */
function refuseLetters(args: readonly string[], letters: string, reason: string): { ok: false; reason: string } | undefined {
  const word = args.find((a) => /^-[^-]/.test(a) && [...a.slice(1)].some((c) => letters.includes(c)));
  return word === undefined ? undefined : { ok: false, reason: `\`${word}\`: ${reason}` };
}

const SED_FLAGS = new Set('nErzsu');
const SED_LONG = new Set(['--quiet', '--silent', '--regexp-extended', '--null-data', '--separate', '--unbuffered', '--posix', '--debug', '--sandbox']);

/** sed that prints: no `-i`, no script file, every script only printing. */
function judgeSed(args: readonly string[]): ReadOnlyJudgement {
  const scripts: string[] = [];
  let positional = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--expression' || word.startsWith('--expression=')) {
      const script = word === '--expression' ? args[++i] : word.slice('--expression='.length);
      if (script === undefined) return { ok: false, reason: 'sed -e needs a script' };
      scripts.push(script);
    } else if (word.startsWith('--line-length=') || SED_LONG.has(word)) continue;
    else if (/^-[^-]/.test(word)) {
      for (let at = 1; at < word.length; at++) {
        const c = word[at]!;
        if (SED_FLAGS.has(c)) continue;
        if (c === 'e' || c === 'l') {
          const value = word.slice(at + 1) || args[++i];
          if (value === undefined) return { ok: false, reason: `sed -${c} needs a value` };
          if (c === 'e') scripts.push(value);
          break;
        }
        return { ok: false, reason: `\`${word}\`: sed may only print (no -i, no script file)` };
      }
    } else if (word.startsWith('--')) return { ok: false, reason: `\`${word}\`: sed may only print (no --in-place, no --file)` };
    else if (scripts.length === 0 && positional++ === 0) scripts.push(word);
  }
  if (scripts.length === 0) return { ok: false, reason: 'sed without a script' };
  const writing = scripts.find((s) => !sedScriptPrintsOnly(s));
  return writing === undefined
    ? { ok: true }
    : { ok: false, reason: `the sed script \`${writing}\` may only print, delete from the output or substitute (no w, W, e, r)` };
}

const UNIQ_VALUED = new Set(['-f', '-s', '-w']);

/** uniq with at most one file: a second one is its output. */
function judgeUniq(args: readonly string[]): ReadOnlyJudgement {
  let files = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (UNIQ_VALUED.has(word)) i++;
    else if (word === '-' || !word.startsWith('-')) files++;
  }
  return files <= 1 ? { ok: true } : { ok: false, reason: 'uniq writes its second file: give it one file and read its output' };
}

const GIT_GLOBAL = new Set(['--no-pager', '-P', '--no-optional-locks', '--literal-pathspecs', '--no-replace-objects']);
const GIT_READ = new Set(['status', 'diff', 'log', 'show', 'ls-files', 'grep', 'blame', 'rev-parse', 'describe', 'cat-file', 'ls-tree', 'branch', 'tag']);
const GIT_RUNS = /^--(ext-diff|textconv|filters|open-files-in-pager|show-signature|output|exec)(=|$)/;

/** Read-only git: a subcommand that reads, with no option that writes a file or runs a program. */
function judgeGit(args: readonly string[]): ReadOnlyJudgement {
  let i = 0;
  while (i < args.length && GIT_GLOBAL.has(args[i]!)) i++;
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined || !GIT_READ.has(sub)) {
    const what = sub?.startsWith('-') ? `the git option \`${sub}\` (it can run programs or read another repository)` : `\`git ${sub ?? ''}\``;
    return {
      ok: false,
      reason: `${what} is not allowed: read-only git is status, diff, log, show, ls-files, grep, blame, rev-parse, describe, cat-file, ls-tree, and listing branches and tags`,
    };
  }
  const runs = refuseWords(rest, GIT_RUNS, 'it writes a file or runs another program');
  if (runs) return runs;
  if (sub === 'grep') return refuseLetters(rest, 'O', 'git grep -O opens a pager') ?? { ok: true };
  if (['status', 'diff', 'log', 'show'].includes(sub) && rest.includes('-o')) return { ok: false, reason: '`-o`: it writes a file' };
  if (sub === 'branch' || sub === 'tag') return judgeListing(sub, rest);
  return { ok: true };
}

const LISTING_FLAGS: Record<'branch' | 'tag', RegExp> = {
  branch:
    /^(-a|--all|-r|--remotes|-l|--list|-v|-vv|--verbose|--show-current|--no-color|--color(=\w+)?|-i|--ignore-case|--no-abbrev|--abbrev=\d+|--omit-empty)$/,
  tag: /^(-l|--list|-n\d*|-i|--ignore-case|--no-color|--color(=\w+)?|--omit-empty)$/,
};
const LISTING_VALUED = /^--(contains|no-contains|merged|no-merged|points-at|sort|format)(=.*)?$/;

/** `git branch` / `git tag` that list; a name without `--list` would create one. */
function judgeListing(sub: 'branch' | 'tag', args: readonly string[]): ReadOnlyJudgement {
  const listing = args.includes('-l') || args.includes('--list');
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (LISTING_FLAGS[sub].test(word)) continue;
    if (LISTING_VALUED.test(word)) {
      if (!word.includes('=') && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) i++;
      continue;
    }
    if (!word.startsWith('-') && listing) continue;
    return { ok: false, reason: `\`git ${sub} ${word}\`: only listing ${sub === 'branch' ? 'branches' : 'tags'} is allowed (a name needs --list)` };
  }
  return { ok: true };
}
