/**
 * A checker plugin's own thread (started by isolated-plugin.ts): it loads the plugin as ccc used
 * to in its own thread (plugin-loader.ts: jiti for TypeScript, the factory called with the
 * options, the shape validated), says `ready` with the plugin's name and hooks (or, asked only for
 * the name of a `defineChecker({ name, create })` plugin, `named` without calling it), then runs what
 * ccc asks. The plugin sees the same `ctx` and `SessionInfo` as before: the logger and the usage
 * reports are messages back to ccc. Whatever the plugin does to this thread (`process.exit`, a
 * loop that never yields, writes to stdout) ends or blocks this thread only.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorText, isCccError } from '../errors.js';
import { importPluginModule, instantiatePlugin } from './plugin-loader.js';
import type { FromWorker, LogLevel, PluginWorkerData, PortableError, SessionHook, ToWorker } from './plugin-messages.js';
import { isCheckerDefinition } from './define-checker.js';
import type { CheckContext, Checker, CheckerLogger, UsageReport } from './types.js';

const port = parentPort!;
const data = workerData as PluginWorkerData;

function send(message: FromWorker): void {
  port.postMessage(message);
}

function portable(error: unknown): PortableError {
  if (isCccError(error)) return { message: error.message, code: error.code, data: cloneable(error.data) };
  return { message: errorText(error) };
}

/** Fields as a message can carry them: what structured clone refuses (functions) goes as its JSON. */
function cloneable(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (fields === undefined) return undefined;
  try {
    return structuredClone(fields);
  } catch {
    return JSON.parse(JSON.stringify(fields, (_key, value: unknown) => (typeof value === 'function' ? `[function]` : value))) as Record<string, unknown>;
  }
}

const log = (level: LogLevel) => (message: string, fields?: Record<string, unknown>) =>
  send({ type: 'log', level, message: String(message), fields: cloneable(fields) });
const logger: CheckerLogger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };

async function main(): Promise<void> {
  let checker: Checker;
  try {
    const { exported } = await importPluginModule(data.specifier, data.cwd, data.moduleCacheDir === undefined ? undefined : () => data.moduleCacheDir!);
    if (data.probe && isCheckerDefinition(exported)) return send({ type: 'named', name: exported.checkerName }); // ccc ends this thread
    checker = await instantiatePlugin(data.specifier, exported, data.options);
  } catch (error) {
    return send({ type: 'invalid', error: portable(error) }); // ccc ends this thread
  }
  const running = new Map<number, AbortController>();

  const check = async (id: number, ctx: CheckContext) => {
    const controller = new AbortController();
    running.set(id, controller);
    try {
      const value = await checker.check(ctx, controller.signal);
      send({ type: 'done', id, value: structuredClone(value) });
    } catch (error) {
      send({ type: 'failed', id, error: portable(error) });
    } finally {
      running.delete(id);
    }
  };

  const sessionHook = async (id: number, hook: SessionHook, info: { sessionId?: string; cwd: string }) => {
    try {
      await checker[hook]?.({ ...info, logger });
      send({ type: 'done', id, value: undefined });
    } catch (error) {
      send({ type: 'failed', id, error: portable(error) });
    }
  };

  port.on('message', (message: ToWorker) => {
    switch (message.type) {
      case 'check': {
        const ctx: CheckContext = {
          ...message.ctx,
          logger,
          reportUsage: (usage: UsageReport) => send({ type: 'usage', id: message.id, usage: cloneable(usage) as UsageReport }),
          reportCost: (usd: number) => send({ type: 'cost', id: message.id, usd }),
        };
        void check(message.id, ctx);
        break;
      }
      case 'abort':
        running.get(message.id)?.abort(new Error(message.reason));
        break;
      case 'frame':
        try {
          checker.onFrame?.(message.frame);
        } catch (error) {
          logger.warn(`checker "${checker.name}" onFrame threw: ${errorText(error)}`);
        }
        break;
      case 'session':
        void sessionHook(message.id, message.hook, message.info);
        break;
    }
  });

  send({
    type: 'ready',
    name: checker.name,
    hooks: { onSessionStart: !!checker.onSessionStart, onFrame: !!checker.onFrame, onSessionEnd: !!checker.onSessionEnd },
  });
}

await main();
