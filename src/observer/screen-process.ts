/**
 * Starts the screen worker (screen-worker.ts) as a child process and gives it to the screen mirror
 * as a `ScreenWorkerPort`. Its memory is its own: when it ends after a burst of joiners, all of it
 * goes back to the system, where a worker thread's stayed in ccc's malloc arenas (observers
 * connecting and dropping left ccc larger for good; see bench/RESULTS.md, "Screen worker: a thread
 * against a process").
 *
 * Messages go over the IPC channel with the advanced serialization (Buffers and typed arrays as
 * they are); the transfer list of the worker-thread form is not needed, a process gets a copy.
 */
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { MirrorReply, MirrorRequest, ScreenWorkerData, ScreenWorkerPort } from './screen-worker-protocol.js';

/**
 * The compiled `screen-worker.js` next to this file; under vitest, which runs the TypeScript
 * sources, `screen-worker.ts` through jiti's loader.
 */
export function spawnScreenProcess(data: ScreenWorkerData): ScreenWorkerPort {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = new URL(fromSource ? './screen-worker.ts' : './screen-worker.js', import.meta.url);
  const child = fork(file, [JSON.stringify(data)], {
    serialization: 'advanced',
    execArgv: fromSource ? ['--import', 'jiti/register'] : [],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  // A session that forgets to close its observer must still be able to exit.
  child.unref();
  child.channel?.unref();
  // The mirror's listeners, apart from the child's own: removing them leaves `exited` listening.
  const events = new EventEmitter();
  child.on('message', (reply: MirrorReply) => events.emit('message', reply));
  child.on('error', (error) => events.emit('error', error));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      events.emit('exit', code, signal);
      resolve();
    }),
  );
  return {
    postMessage(message: MirrorRequest) {
      if (child.connected) child.send(message, (error) => error && child.kill());
    },
    on(event: 'message' | 'error' | 'exit', listener: (...values: never[]) => void) {
      return events.on(event, listener as (value: unknown) => void);
    },
    removeAllListeners: (event) => events.removeAllListeners(event),
    async terminate() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
