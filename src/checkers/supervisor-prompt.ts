/**
 * Where the reviewer's instructions come from: `./SUPERVISOR.md` in the project, else the
 * configured `prompt_path` (default `~/.claude/SUPERVISOR.md`). Neither: a clear error.
 */
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../config/config-dir.js';
import { CccError } from '../errors.js';
import { CLAUDE_STDIN_LIMIT_BYTES, readUserFileSync } from '../user-file.js';

/**
 * The instructions go to the reviewer on claude's stdin inside a review request; 2 MiB of the
 * limit stay for the request around them (the task, the stop's summary, the evidence rules).
 */
export const SUPERVISOR_PROMPT_MAX_BYTES = CLAUDE_STDIN_LIMIT_BYTES - 2 * 1024 * 1024;

export interface SupervisorPrompt {
  text: string;
  path: string;
}

export function loadSupervisorPrompt(options: { cwd: string; promptPath: string; home?: string }): SupervisorPrompt {
  const candidates = [
    path.join(options.cwd, 'SUPERVISOR.md'),
    path.resolve(options.cwd, expandHome(options.promptPath, options.home ?? process.env.HOME ?? os.homedir())),
  ];
  for (const candidate of candidates) {
    const read = readUserFileSync(candidate, { maxBytes: SUPERVISOR_PROMPT_MAX_BYTES });
    if (read.ok) {
      if (read.text.trim()) return { text: read.text, path: candidate };
      continue;
    }
    if (read.problem.kind === 'missing') continue;
    const why =
      read.problem.kind === 'too-large'
        ? `${read.problem.message}: the reviewer's instructions go on claude's stdin, which takes at most ${CLAUDE_STDIN_LIMIT_BYTES} bytes with the review request. Shorten it.`
        : `${read.problem.message}. Replace it with your review instructions (a text file), or remove it.`;
    throw new CccError('PROMPT_MISSING', `The reviewer's instructions cannot be used: ${why}`, { data: { path: candidate, problem: read.problem.kind } });
  }
  throw new CccError(
    'PROMPT_MISSING',
    `No SUPERVISOR.md in ${options.cwd} or at ${candidates[1]} (supervisor.prompt_path). Run \`ccc init\` to create one, or point CCC_SUPERVISOR_PROMPT_PATH at your review instructions.`,
    { data: { candidates } },
  );
}
