/**
 * For `ccc config` and `ccc doctor`: the reviewer's instructions file a supervised run here would
 * use, and why (`./SUPERVISOR.md` beats `supervisor.prompt_path`: docs/design/reviewer.md), and
 * where it really is when it is a link.
 */
import path from 'node:path';
import { loadSupervisorPrompt, promptPathFor } from '../checkers/supervisor-prompt.js';
import { isCccError } from '../errors.js';
import { homeDir } from '../config/config-dir.js';
import type { PromptInUse } from '../config/show.js';
import type { ResolvedConfig } from '../config/types.js';

export function promptInUse(options: { cwd: string; resolved: Pick<ResolvedConfig, 'config' | 'sources'>; env: NodeJS.ProcessEnv }): PromptInUse {
  const local = path.join(options.cwd, 'SUPERVISOR.md');
  const { config, sources } = options.resolved;
  const promptPath = promptPathFor({}, config, sources);
  try {
    const found = loadSupervisorPrompt({ cwd: options.cwd, promptPath, trusted: config.trusted_dirs, home: homeDir(options.env) });
    const real = found.real === undefined ? {} : { real: found.real };
    return found.path === local
      ? { path: found.path, ...real, why: './SUPERVISOR.md in the project, which takes precedence over supervisor.prompt_path' }
      : { path: found.path, ...real, why: `supervisor.prompt_path; there is no ./SUPERVISOR.md in ${options.cwd}` };
  } catch (error) {
    // A SUPERVISOR.md that is there but unusable (a directory, a FIFO, too large, empty, outside the project) is named as such.
    if (isCccError(error, 'PROMPT_MISSING') && error.data.problem !== undefined) {
      return { why: error.message, ...(error.data.path === undefined ? {} : { unusable: error.data.path }) };
    }
    return { why: `none: no SUPERVISOR.md in ${options.cwd} and none at ${promptPath.path}; \`ccc init\` writes one` };
  }
}
