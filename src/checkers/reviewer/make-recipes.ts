/**
 * What a make target runs, read from the Makefile without running make: the recipe lines of the
 * target and, first, of its prerequisites that have rules, with the Makefile's own variables
 * expanded (`PYTEST ?= python3 -m pytest`, `$(MAKE)`), `@`, `-` and `+` prefixes dropped, line
 * continuations joined, literal `include`s followed. `make -n` would print the same, but it
 * evaluates `$(shell …)` and runs `+` lines and `$(MAKE)` calls: the project's code. A variable
 * the Makefile does not define (set in the environment, by `$(shell …)`) stays as written, and a
 * command built from it is no runner ccc knows.
 */
import path from 'node:path';
import type { ProjectFiles } from '../../init/project-files.js';

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
const MAX_LINES = 200;
const MAX_EXPANSIONS = 20;

interface Makefile {
  vars: Map<string, string>;
  rules: Map<string, { prerequisites: string[]; recipe: string[] }>;
}

/** The Makefile make would read in `dir` (or `file`), relative to the project; undefined when none. */
export function makefileIn(files: ProjectFiles, dir: string, file?: string): string | undefined {
  if (file !== undefined) return files.read(path.posix.join(dir, file)) === undefined ? undefined : path.posix.join(dir, file);
  return MAKEFILES.map((name) => path.posix.join(dir, name)).find((name) => files.read(name) !== undefined);
}

/** The shell lines `targets` run, prerequisites first, each target once; undefined for a target with no rule. */
export function makeRecipes(files: ProjectFiles, makefile: string, targets: readonly string[]): { lines: string[]; missing: string[] } {
  const parsed = parseMakefile(files, makefile, new Set());
  const lines: string[] = [];
  const missing: string[] = [];
  const done = new Set<string>();
  const visit = (target: string, depth: number) => {
    if (done.has(target) || depth > 20 || lines.length >= MAX_LINES) return;
    done.add(target);
    const rule = parsed.rules.get(target);
    if (!rule) {
      if (depth === 0) missing.push(target);
      return;
    }
    for (const prerequisite of rule.prerequisites) visit(prerequisite, depth + 1);
    for (const line of rule.recipe) lines.push(expand(line, parsed.vars));
  };
  const wanted = targets.length ? targets : [firstTarget(parsed)].filter((t): t is string => t !== undefined);
  for (const target of wanted) visit(target, 0);
  return { lines: lines.map(withoutPrefix).filter(Boolean), missing };
}

function firstTarget(parsed: Makefile): string | undefined {
  return [...parsed.rules.keys()].find((t) => !t.startsWith('.'));
}

function parseMakefile(files: ProjectFiles, name: string, seen: Set<string>): Makefile {
  const parsed: Makefile = { vars: new Map([['MAKE', 'make']]), rules: new Map() };
  readInto(files, name, seen, parsed);
  return parsed;
}

function readInto(files: ProjectFiles, name: string, seen: Set<string>, parsed: Makefile): void {
  if (seen.has(name) || seen.size > 10) return;
  seen.add(name);
  const text = (files.read(name) ?? '').replace(/\\\r?\n[ \t]*/g, ' ');
  let current: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('\t')) {
      for (const target of current) parsed.rules.get(target)?.recipe.push(line.slice(1));
      continue;
    }
    const code = line.replace(/(^|[^\\])#.*$/, '$1').trimEnd();
    if (!code.trim() || /^\s*(?:ifn?eq|ifn?def|else|endif)\b/.test(code)) continue; // both branches' lines are read
    const include = /^-?s?include\s+(.+)$/.exec(code);
    if (include) {
      for (const file of expand(include[1]!, parsed.vars).split(/\s+/).filter(Boolean)) {
        if (!/[*?$]/.test(file)) readInto(files, path.posix.join(path.posix.dirname(name), file), seen, parsed);
      }
      current = [];
      continue;
    }
    const assignment = /^(?:export\s+|override\s+)*([A-Za-z_][\w.-]*)\s*(\?=|:{1,3}=|\+=|!=|=)\s*(.*)$/.exec(code);
    if (assignment) {
      const [, variable, op, value] = assignment as unknown as [string, string, string, string];
      if (op === '?=' && parsed.vars.has(variable)) continue;
      if (op === '!=') continue; // a shell command's output: not known without running it
      const now = op === ':=' || op === '::=' || op === ':::=' ? expand(value, parsed.vars) : value;
      parsed.vars.set(variable, op === '+=' ? `${parsed.vars.get(variable) ?? ''} ${now}`.trim() : now);
      current = [];
      continue;
    }
    const rule = /^([^:=]+?)\s*::?\s*([^=]*)$/.exec(code);
    if (!rule || /%/.test(rule[1]!)) {
      current = [];
      continue;
    }
    const [deps, inline] = splitInline(rule[2]!);
    current = expand(rule[1]!, parsed.vars).split(/\s+/).filter(Boolean);
    for (const target of current) {
      const existing = parsed.rules.get(target) ?? { prerequisites: [], recipe: [] };
      existing.prerequisites.push(
        ...expand(deps, parsed.vars)
          .split(/\s+/)
          .filter((d) => d && d !== '|'),
      );
      if (inline) existing.recipe.push(inline);
      parsed.rules.set(target, existing);
    }
  }
}

/** `test: build ; pytest`: the prerequisites and a recipe on the rule's line. */
function splitInline(rest: string): [string, string | undefined] {
  const at = rest.indexOf(';');
  return at === -1 ? [rest, undefined] : [rest.slice(0, at), rest.slice(at + 1).trim()];
}

/** `$(NAME)`, `${NAME}`, `$X` from the Makefile's variables; `$$` is `$`; functions and unknown names stay as written. */
function expand(text: string, vars: ReadonlyMap<string, string>, depth = 0): string {
  if (depth > MAX_EXPANSIONS) return text;
  let changed = false;
  const out = text.replace(/\$\$|\$\(([A-Za-z_][\w.-]*)\)|\$\{([A-Za-z_][\w.-]*)\}|\$([A-Za-z_@<^])/g, (whole, a?: string, b?: string, c?: string) => {
    if (whole === '$$') return '\0';
    const name = a ?? b ?? c!;
    const value = vars.get(name);
    if (value === undefined) return whole;
    changed = true;
    return value;
  });
  return (changed ? expand(out, vars, depth + 1) : out).replace(/\0/g, '$');
}

/** A recipe line without make's own prefixes (`@` silent, `-` ignore errors, `+` always run). */
function withoutPrefix(line: string): string {
  return line.replace(/^[\s@+-]+/, '').trim();
}
