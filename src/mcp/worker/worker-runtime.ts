/**
 * The Worker process: runs the tools for the Keeper over IPC. It says `ready` once its tools
 * are set up, answers each `call` exactly once (unless cancelled first, then never), answers
 * pings, and exits when the Keeper goes away (the IPC channel closes), so it never outlives it.
 */
import { parseKeeperMessage, type WorkerMessage } from '../ipc/protocol.js';
import type { Logger } from '../../log/logger.js';
import { openControllingTerminal, terminalChannel } from '../feedback/terminal-channel.js';
import { openMcpStoreSafely } from '../storage/mcp-store.js';
import { workerTools } from '../tools/definitions.js';
import { runTool } from '../tools/tool-runner.js';
import { workerHandlers } from '../tools/worker-handlers.js';
import { createIpcFeedbackChannel } from './ipc-feedback-channel.js';
import type { TestHooks } from './test-hooks.js';

/** The Worker's end of the IPC channel. */
export interface IpcPort {
  send(message: WorkerMessage): void;
  onMessage(listener: (raw: unknown) => void): () => void;
  onDisconnect(listener: () => void): () => void;
}

export function processPort(): IpcPort {
  return {
    send(message) {
      if (process.connected) process.send?.(message, undefined, {}, () => {});
    },
    onMessage(listener) {
      process.on('message', listener);
      return () => process.off('message', listener);
    },
    onDisconnect(listener) {
      process.on('disconnect', listener);
      return () => process.off('disconnect', listener);
    },
  };
}

export interface WorkerRuntimeOptions {
  port: IpcPort;
  env: NodeJS.ProcessEnv;
  configDir: string;
  hooks: TestHooks;
  logger: Logger;
}

export function runWorker(options: WorkerRuntimeOptions): { stop(): void } {
  const { port, logger, hooks } = options;
  const store = openMcpStoreSafely(options.configDir, (message) => logger.error(message));
  const web = createIpcFeedbackChannel((message) => port.send(message));
  const terminal = terminalChannel(() => openControllingTerminal(options.env, process.stderr.isTTY === true));
  const handlers = workerHandlers({ configDir: options.configDir, channels: [web, terminal], store, testTools: hooks.testTools });
  const running = new Map<number, AbortController>();

  const undoMessage = port.onMessage((raw) => {
    const message = parseKeeperMessage(raw);
    if (!message) return logger.warn('dropped a malformed message from the supervisor', { message: JSON.stringify(raw)?.slice(0, 200) });
    switch (message.type) {
      case 'call':
        return void call(message.id, message.name, message.arguments);
      case 'cancel':
        running.get(message.id)?.abort(message.reason);
        running.delete(message.id); // a cancelled call gets no result
        return;
      case 'ping':
        if (!hooks.ignorePings) port.send({ type: 'pong', seq: message.seq });
        return;
      case 'feedback-answer':
        return web.deliver(message.questionId, message.answer);
    }
  });

  async function call(id: number, name: string, args: Record<string, unknown>) {
    const controller = new AbortController();
    running.set(id, controller);
    logger.debug(`running ${name}`, { id });
    const result = await runTool(handlers, name, args, {
      signal: controller.signal,
      progress: (update) => running.has(id) && port.send({ type: 'progress', id, ...update }),
    });
    if (running.delete(id)) port.send({ type: 'result', id, result });
  }

  const stop = () => {
    undoMessage();
    undoDisconnect();
    for (const controller of running.values()) controller.abort('worker stopping');
    store.close();
  };
  const undoDisconnect = port.onDisconnect(() => {
    logger.info('supervisor went away; worker exiting');
    stop();
    process.exit(0);
  });

  port.send({ type: 'ready', pid: process.pid, tools: workerTools(hooks) });
  logger.debug('worker ready', {
    tools: workerTools(hooks)
      .map((t) => t.name)
      .join(','),
  });
  return { stop };
}
