/**
 * The Stop hook deciding on its own, in a Claude Code session that ccc did not start (installed
 * with `ccc hook install`). Same config, pipeline and `reviewStop` as the proxy.
 */
import { buildPipeline } from '../checkers/registry.js';
import { loadConfig } from '../config/load.js';
import { moduleCacheDir } from '../state/paths.js';
import { reviewStop } from '../loop/review-stop.js';
import { limitWaits, reviewWithinLimits } from '../loop/limit-wait.js';
import { SessionCore } from '../loop/session-core.js';
import { hookOutput } from '../stop/hook-output.js';
import type { StopEvent } from '../stop/stop-event.js';

export async function decideStandalone(stop: StopEvent, env: NodeJS.ProcessEnv): Promise<string> {
  const resolved = await loadConfig({ cwd: stop.cwd, env });
  const pipeline = await buildPipeline({ config: resolved.config, cwd: stop.cwd, moduleCacheDir: () => moduleCacheDir(resolved.configDir) });
  const session = new SessionCore({ resolved, pipeline, cwd: stop.cwd, env, claudeArgs: resolved.config.claude.args });
  session.setSessionId(stop.sessionId);
  session.logger.info('supervisor-hook started', { session_id: stop.sessionId, stop_hook_active: stop.stopHookActive });
  const started = Date.now();
  try {
    // A review refused on the model's limit is waited out inside this process (its hook's
    // `timeout` covers the waiting budget); claude killing the hook is the only other end of it.
    const { limit_wait_minutes: maxMinutes, limit_retry_seconds: retrySeconds } = resolved.config.supervisor;
    const decision = await reviewWithinLimits(() => reviewStop(stop, session.reviewDeps()), {
      logger: session.logger,
      emit: (e) => session.emit(e),
      waits: limitWaits({ retrySeconds, maxMinutes }),
      maxMinutes,
      signal: new AbortController().signal,
    });
    session.logger.info('supervisor-hook finished', { session_id: stop.sessionId, decision: decision.action, duration: `${Date.now() - started}ms` });
    return hookOutput(decision, { showVerdict: false });
  } finally {
    await session.close();
  }
}
