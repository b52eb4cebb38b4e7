/**
 * Where the reviewer's instructions come from: `./SUPERVISOR.md` in the project, else the
 * configured `prompt_path` (default `~/.claude/SUPERVISOR.md`). Neither: a clear error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expandHome } from '../config/config-dir.js';
import { CccError } from '../errors.js';

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
    let text: string;
    try {
      text = fs.readFileSync(candidate, 'utf8');
    } catch {
      continue;
    }
    if (text.trim()) return { text, path: candidate };
  }
  throw new CccError(
    'PROMPT_MISSING',
    `No SUPERVISOR.md in ${options.cwd} or at ${candidates[1]} (supervisor.prompt_path). Run \`ccc init\` to create one, or point CCC_SUPERVISOR_PROMPT_PATH at your review instructions.`,
    { data: { candidates } },
  );
}
