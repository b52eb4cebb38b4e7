/**
 * The arguments a test runner may be given by the reviewer, per runner: options that select tests
 * or change what is reported on the terminal, and paths inside the project. Everything else is
 * refused (fail closed): an option ccc does not list, an option that writes (snapshot updates,
 * output and coverage files, `--fix`), or one that runs another program (a reporter module, a
 * config file, `-exec`). Coverage is refused where it writes a directory or a data file.
 *
 * An option's value is never an option itself (`-t -u` is refused: some parsers would read it as
 * `-t '' -u`).
 */
import { pathInside, type PathCheck } from './project-paths.js';
import { FAMILIES, type Family, type FamilyRules, type ValueRule } from './runner-families.js';

export { FAMILIES, type Family };

export type Judgement = { ok: true } | { ok: false; reason: string };

export interface PathContext {
  root: string;
  /** The directory the command runs in. */
  base: string;
}

/** Judges the arguments given to a runner of `family`; never throws. */
export function judgeRunnerArgs(family: Family, args: readonly string[], where: PathContext): Judgement {
  if (!Object.hasOwn(FAMILIES, family)) return { ok: false, reason: `no argument table for ${String(family)}` };
  const rules = FAMILIES[family];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--' && rules.afterDashDash) return judgeRunnerArgs(rules.afterDashDash, args.slice(i + 1), where);
    if (family === 'maven' && /^-D(test|it\.test|groups|excludedGroups|failIfNoTests|surefire\.failIfNoSpecifiedTests)=[^-]/.test(word)) continue;
    if (word.startsWith('-') && word !== '-') {
      const option = judgeOption(rules, args, i, where);
      if (!option.ok) return option;
      i += option.consumed;
      continue;
    }
    const positional = judgePositional(rules, word, positionals++, where);
    if (!positional.ok) return positional;
  }
  return { ok: true };
}

type OptionJudgement = { ok: true; consumed: number } | { ok: false; reason: string };

function judgeOption(rules: FamilyRules, args: readonly string[], i: number, where: PathContext): OptionJudgement {
  const word = args[i]!;
  const eq = word.startsWith('--') || rules.goStyle ? word.indexOf('=') : -1;
  const raw = eq === -1 ? word : word.slice(0, eq);
  const name = rules.goStyle && raw.startsWith('--') ? raw.slice(1) : raw;
  const inline = eq === -1 ? undefined : word.slice(eq + 1);
  const refusal = refusedBecause(rules, name);
  if (refusal) return refusal;
  if (rules.flags.includes(name) && inline === undefined) return { ok: true, consumed: 0 };
  const rule = Object.hasOwn(rules.valued, name) ? rules.valued[name] : undefined;
  if (rule !== undefined) {
    if (inline !== undefined) return judgeValue(name, rule, inline, 0, where);
    const next = args[i + 1];
    if (next === undefined) return { ok: false, reason: `\`${name}\` needs a value` };
    return judgeValue(name, rule, next, 1, where);
  }
  if (rules.bundles && /^-[^-]/.test(word)) return judgeBundle(rules, args, i, where);
  return { ok: false, reason: `\`${word}\` is not an option of ${rules.name} that selects tests or changes what is reported` };
}

/** `-vx`, `-kadd`, `-xk add`: letters in a row, a letter that takes a value takes the rest or the next word. */
function judgeBundle(rules: FamilyRules, args: readonly string[], i: number, where: PathContext): OptionJudgement {
  const word = args[i]!;
  for (let at = 1; at < word.length; at++) {
    const letter = `-${word[at]}`;
    const refusal = refusedBecause(rules, letter);
    if (refusal) return { ok: false, reason: `${refusal.reason} (\`${letter}\` in \`${word}\`)` };
    if (rules.flags.includes(letter)) continue;
    const rule = Object.hasOwn(rules.valued, letter) ? rules.valued[letter] : undefined;
    if (rule === undefined) return { ok: false, reason: `\`${word}\` is not an option of ${rules.name} that selects tests or changes what is reported` };
    const rest = word.slice(at + 1);
    if (rest !== '') return judgeValue(letter, rule, rest, 0, where);
    const next = args[i + 1];
    return next === undefined ? { ok: false, reason: `\`${letter}\` needs a value` } : judgeValue(letter, rule, next, 1, where);
  }
  return { ok: true, consumed: 0 };
}

function refusedBecause(rules: FamilyRules, name: string): { ok: false; reason: string } | undefined {
  const hit = rules.refused.find(([pattern]) => pattern.test(name));
  return hit ? { ok: false, reason: `\`${name}\` is refused: ${hit[1]}` } : undefined;
}

function judgeValue(name: string, rule: ValueRule, value: string, consumed: number, where: PathContext): OptionJudgement {
  if (value.startsWith('-') && !/^-\d+$/.test(value)) return { ok: false, reason: `the value of \`${name}\` may not start with \`-\` (\`${value}\`)` };
  if (rule === 'number' && !/^\d+(\.\d+)?%?$/.test(value)) return { ok: false, reason: `\`${name}\` takes a number` };
  if (Array.isArray(rule) && !rule.includes(value)) return { ok: false, reason: `\`${name}\` may only be ${rule.join(', ')} here` };
  if (rule === 'path') {
    const inside = pathInside(where.root, where.base, value.replace(/::.*$/s, ''));
    if (!inside.ok) return inside;
  }
  return { ok: true, consumed };
}

function judgePositional(rules: FamilyRules, word: string, index: number, where: PathContext): PathCheck {
  if (index === 0 && rules.subcommands?.includes(word)) return { ok: true };
  const command = index === 0 ? rules.refusedSubcommands?.find(([pattern]) => pattern.test(word)) : undefined;
  if (command) return { ok: false, reason: `\`${word}\` is refused: ${command[1]}` };
  if (rules.positional === 'name') return { ok: true };
  if (rules.positional === 'none') return { ok: false, reason: `${rules.name} takes no other target or argument here (\`${word}\`)` };
  const file = rules.selector ? word.replace(rules.selector, '') : word;
  const inside = pathInside(where.root, where.base, file === '' ? '.' : file);
  if (inside.ok && rules.dotRelative && !/^\.\.?(\/|$)/.test(word)) return { ok: false, reason: `\`${word}\`: write a package of the project as ./${word}` };
  return inside;
}

/** One word of a runner's arguments: an option by its name (Go's `--run` is `-run`), or a positional. */
type ArgWord = { kind: 'option'; word: string; name: string } | { kind: 'positional'; word: string; first: boolean };

/**
 * The first answer `visit` gives for the words of `args`, with the values of options skipped (a
 * value never starts with `-`: judgeValue) and the words after `--` read by the table it leads to.
 */
function firstAnswer(family: Family, args: readonly string[], visit: (rules: FamilyRules, word: ArgWord) => string | undefined): string | undefined {
  if (!Object.hasOwn(FAMILIES, family)) return undefined;
  const rules = FAMILIES[family];
  let positionals = 0;
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (word === '--' && rules.afterDashDash) return firstAnswer(rules.afterDashDash, args.slice(i + 1), visit);
    if (!word.startsWith('-') || word === '-') {
      const answer = visit(rules, { kind: 'positional', word, first: positionals++ === 0 });
      if (answer !== undefined) return answer;
      continue;
    }
    const raw = word.split('=')[0]!;
    const name = rules.goStyle && raw.startsWith('--') ? raw.slice(1) : raw;
    const answer = visit(rules, { kind: 'option', word, name });
    if (answer !== undefined) return answer;
    if (!word.includes('=') && Object.hasOwn(rules.valued, name)) i++;
    else if (rules.bundles && /^-[^-]/.test(word) && bundleTakesNext(rules, word)) i++;
  }
  return undefined;
}

/** Why `family` given `args` runs no test (`--collect-only`, `--list`, `--no-run`, a dry run, `vitest list`), or undefined when it runs them. */
export function runsNoTest(family: Family, args: readonly string[]): string | undefined {
  return firstAnswer(family, args, (rules, arg) => {
    // The first positional may be the runner's own command (`vitest list`).
    if (arg.kind === 'positional' && !(arg.first && rules.subcommands?.includes(arg.word))) return undefined;
    const name = arg.kind === 'option' ? arg.name : arg.word;
    const hit = rules.noRun?.find(([pattern]) => pattern.test(name));
    return hit ? `${hit[1]} (\`${arg.word}\`)` : undefined;
  });
}

/**
 * What part of the suite `family` given `args` runs, or undefined when it runs all of it: an
 * option its table lists under `selects` (`-k`, `-t`, `--deselect`, `-run`, also in a bundle such
 * as `-xk`), or a positional (a path, a test name) other than one that stands for the whole
 * (`./...`) or the runner's own command (vitest's `run`): `a name filter (\`-k\`)`.
 */
export function focusOf(family: Family, args: readonly string[]): string | undefined {
  return firstAnswer(family, args, (rules, arg) => {
    if (arg.kind === 'positional') {
      if ((arg.first && rules.subcommands?.includes(arg.word)) || rules.wholePositionals?.includes(arg.word) || rules.positional === 'none') return undefined;
      return `${rules.positional === 'name' ? 'a name filter' : 'a path'} (\`${arg.word}\`)`;
    }
    const hit = rules.selects?.find(([pattern]) => pattern.test(arg.name));
    if (hit) return `${hit[1]} (\`${arg.name}\`)`;
    return rules.bundles && /^-[^-]/.test(arg.word) ? bundledSelection(rules, arg.word) : undefined;
  });
}

/** A getopt bundle (`-xk`, `-kadd`) holding a selecting letter. */
function bundledSelection(rules: FamilyRules, word: string): string | undefined {
  for (let at = 1; at < word.length; at++) {
    const letter = `-${word[at]}`;
    const hit = rules.selects?.find(([pattern]) => pattern.test(letter));
    if (hit) return `${hit[1]} (\`${letter}\`)`;
    if (Object.hasOwn(rules.valued, letter)) return undefined;
  }
  return undefined;
}

/** Whether a bundle ends in a letter that takes the next word as its value (`-xk add`). */
function bundleTakesNext(rules: FamilyRules, word: string): boolean {
  for (let at = 1; at < word.length; at++) if (Object.hasOwn(rules.valued, `-${word[at]}`)) return at === word.length - 1;
  return false;
}
