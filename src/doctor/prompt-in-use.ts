/**
 * For `ccc config`: the reviewer's instructions file a supervised run here would use, and why
 * (`./SUPERVISOR.md` beats `supervisor.prompt_path`: docs/design/reviewer.md).
 */
import path from 'node:path';
import { loadSupervisorPrompt } from '../checkers/supervisor-prompt.js';
import { isCccError } from '../errors.js';
import { homeDir } from '../config/config-dir.js';
import type { PromptInUse } from '../config/show.js';

export function promptInUse(options: { cwd: string; promptPath: string; env: NodeJS.ProcessEnv }): PromptInUse {
  const local = path.join(options.cwd, 'SUPERVISOR.md');
  try {
    const found = loadSupervisorPrompt({ cwd: options.cwd, promptPath: options.promptPath, home: homeDir(options.env) }).path;
    return found === local
      ? { path: found, why: './SUPERVISOR.md in the project, which takes precedence over supervisor.prompt_path' }
      : { path: found, why: `supervisor.prompt_path; there is no ./SUPERVISOR.md (or it is empty) in ${options.cwd}` };
  } catch (error) {
    // A SUPERVISOR.md that is there but unusable (a directory, a FIFO, too large) is named as such.
    if (isCccError(error) && error.data.problem !== undefined) {
      return { why: error.message, ...(typeof error.data.path === 'string' ? { unusable: error.data.path } : {}) };
    }
    return { why: `none: no SUPERVISOR.md in ${options.cwd} and none at ${options.promptPath}; \`ccc init\` writes one` };
  }
}
