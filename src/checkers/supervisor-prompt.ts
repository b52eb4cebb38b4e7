/**
 * Where the reviewer's instructions come from: `./SUPERVISOR.md` in the project, else the
 * configured `prompt_path` (default `~/.claude/SUPERVISOR.md`). Neither: a clear error.
 *
 * The file goes to the model whole, so what the project offers must really be in the project:
 * `./SUPERVISOR.md`, and a prompt_path the project's own config wrote, are refused when they
 * resolve elsewhere (a symlink to `/proc/self/environ` or to a private key, a `../..` path), unless
 * the place is in the user's `trusted_dirs`. A prompt_path the user set (globally, in the
 * environment, as a flag) is the user's choice and read where it points.
 */
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../config/config-dir.js';
import type { CccConfig, ConfigLayer, ResolvedConfig } from '../config/types.js';
import { CccError } from '../errors.js';
import { normalizeDeclaration } from './rule-commands.js';
import { CLAUDE_STDIN_LIMIT_BYTES, readUserFileSync, type UserFileProblem } from '../user-file.js';

/**
 * The instructions go to the reviewer on claude's stdin inside a review request; 2 MiB of the
 * limit stay for the request around them (the task, the stop's summary, the evidence rules).
 */
export const SUPERVISOR_PROMPT_MAX_BYTES = CLAUDE_STDIN_LIMIT_BYTES - 2 * 1024 * 1024;

export interface SupervisorPrompt {
  text: string;
  path: string;
  /** Where the file really is, when that differs from `path` (a symlink, `..`). */
  real?: string;
}

/** A prompt_path and who wrote it. */
export interface PromptPath {
  path: string;
  /** Written by the project's own config: it must resolve inside the project, like ./SUPERVISOR.md. */
  fromProject: boolean;
}

export interface LoadSupervisorPromptOptions {
  cwd: string;
  promptPath: PromptPath;
  home?: string;
  /** `trusted_dirs`: places outside the project the project's files may resolve into. */
  trusted?: readonly string[];
}

/**
 * The prompt_path a `claude` or `codex` checker uses: its own option, else `supervisor.prompt_path`; from the
 * project when the layer that set it is the project's config.
 */
export function promptPathFor(options: Record<string, unknown>, config: CccConfig, sources: Readonly<Record<string, ConfigLayer>>): PromptPath {
  if (typeof options.prompt_path === 'string') return { path: options.prompt_path, fromProject: sources['supervisor.checkers'] === 'project' };
  return { path: config.supervisor.prompt_path, fromProject: sources['supervisor.prompt_path'] === 'project' };
}

/** Reads every `claude` checker's instructions once, so that an unusable file is exit 2 before the agent starts. */
export function requireReviewerPrompts(resolved: Pick<ResolvedConfig, 'config' | 'sources'>, cwd: string, home: string | undefined): void {
  for (const declaration of resolved.config.supervisor.checkers) {
    const { use, options } = normalizeDeclaration(declaration);
    if (use === 'claude')
      loadSupervisorPrompt({ cwd, promptPath: promptPathFor(options, resolved.config, resolved.sources), trusted: resolved.config.trusted_dirs, home });
  }
}

export function loadSupervisorPrompt(options: LoadSupervisorPromptOptions): SupervisorPrompt {
  const local = path.join(options.cwd, 'SUPERVISOR.md');
  const configured = path.resolve(options.cwd, expandHome(options.promptPath.path, options.home ?? process.env.HOME ?? os.homedir()));
  const within = [options.cwd, ...(options.trusted ?? [])];
  const candidates = [
    { file: local, within },
    { file: configured, within: options.promptPath.fromProject ? within : undefined },
  ];
  for (const { file, within } of candidates) {
    const read = readUserFileSync(file, { maxBytes: SUPERVISOR_PROMPT_MAX_BYTES, within });
    if (read.ok) {
      // claude would get instructions that say nothing; the reviewer would judge by its own lights.
      if (read.text.trim() === '') throw emptyPrompt(file);
      return { text: read.text, path: file, ...(read.real === file ? {} : { real: read.real }) };
    }
    if (read.problem.kind === 'missing') continue;
    throw unusable(file, read.problem);
  }
  throw new CccError(
    'PROMPT_MISSING',
    `No SUPERVISOR.md in ${options.cwd} or at ${configured} (supervisor.prompt_path). Run \`ccc init\` to create one, or point CCC_SUPERVISOR_PROMPT_PATH at your review instructions.`,
    { data: { candidates: [local, configured] } },
  );
}

function emptyPrompt(file: string): CccError {
  return new CccError(
    'PROMPT_MISSING',
    `The reviewer's instructions cannot be used: ${file} is empty (nothing but white space or a byte-order mark). Write your review instructions into it, or remove it (\`ccc init --force\` replaces it with the starter).`,
    { data: { path: file, problem: 'empty' } },
  );
}

function unusable(file: string, problem: UserFileProblem): CccError {
  const why =
    problem.kind === 'too-large'
      ? `${problem.message}: the reviewer's instructions go on claude's stdin, which takes at most ${CLAUDE_STDIN_LIMIT_BYTES} bytes with the review request. Shorten it.`
      : problem.kind === 'outside'
        ? `${problem.message}. They go to the model whole, so ccc reads the project's instructions only from inside the project. ` +
          'Replace the link with the file, or, if you trust that place, add its directory to trusted_dirs in your global ccc.json.'
        : `${problem.message}. Replace it with your review instructions (a text file), or remove it.`;
  return new CccError('PROMPT_MISSING', `The reviewer's instructions cannot be used: ${why}`, {
    data: { path: file, problem: problem.kind, ...(problem.kind === 'outside' ? { real: problem.real } : {}) },
  });
}
