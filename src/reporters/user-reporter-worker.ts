/**
 * A user's reporter in its own thread (started by user-reporter.ts): loads the module, says
 * `ready` (or `invalid` with why), then hands it each event and frame in order and, last, the
 * run's end. Whatever the reporter does to this thread (throws, loops, `process.exit`, writes to
 * stdout) stays here; a throw or a rejection is said back once, and the reporter keeps being called.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorText } from '../errors.js';
import { loadUserReporter, type UserReporter } from './reporter-module.js';
import type { ReporterFromWorker, ReporterToWorker, ReporterWorkerData } from './user-reporter-messages.js';

const port = parentPort!;
const data = workerData as ReporterWorkerData;
const send = (message: ReporterFromWorker) => port.postMessage(message);

let reporter: UserReporter;
try {
  reporter = await loadUserReporter(data.specifier, { cwd: data.cwd, mode: data.mode }, data.moduleCacheDir);
  send({ type: 'ready', onFrame: typeof reporter.onFrame === 'function' });
} catch (error) {
  send({ type: 'invalid', message: errorText(error) });
  process.exit(0);
}

/** Calls run one after another: a reporter that returns a promise sees its events in order. */
let chain: Promise<unknown> = Promise.resolve();
const call = (method: keyof UserReporter, arg: unknown) => {
  chain = chain.then(async () => {
    try {
      await (reporter[method] as ((a: unknown) => unknown) | undefined)?.call(reporter, arg);
    } catch (error) {
      send({ type: 'failed', method, message: errorText(error) });
    }
  });
  return chain;
};

port.on('message', (message: ReporterToWorker) => {
  if (message.type === 'event') void call('onEvent', message.event);
  else if (message.type === 'frame') void call('onFrame', message.frame);
  else void call('close', message.end).then(() => send({ type: 'closed' }));
});
