/**
 * `ccc --supervisor [claude args]`: the real Claude Code TUI in a pty behind the transparent
 * proxy. Stops arrive through the Stop hook injected for this launch, which calls back over the
 * private stop channel; each is decided by `reviewStop`, and the answer goes back to claude as the
 * hook's output (a block with the feedback, or nothing). The agent's exit code is ours.
 */
import crypto from 'node:crypto';
import { hookOutput } from '../stop/hook-output.js';
import { selfCommand, stopHookSettings, withLaunchSettings } from '../stop/launch-settings.js';
import { SOCKET_ENV, startStopChannel, TOKEN_ENV } from '../stop/stop-channel.js';
import { parseStopInput } from '../stop/stop-event.js';
import { startAgentProxy } from '../pty/agent-proxy.js';
import { InputRecorder } from '../input/input-recorder.js';
import { cccDir, inputLogPath } from '../state/paths.js';
import { observeSession } from './observe-session.js';
import { registerRunningSession } from './running-session.js';
import { event } from './events.js';
import { reviewStop } from './review-stop.js';
import { reviewTitleUpdater } from './review-status.js';
import type { SupervisorSession } from './supervisor-session.js';
import { tailSessionTranscript } from './transcript-frames.js';

const SESSION_CHOOSING_ARGS = ['--resume', '-r', '--continue', '-c', '--session-id', '--fork-session'];

export interface InteractiveOptions {
  /** Start the remote observer (`--observe`). */
  observe: boolean;
  stderr: NodeJS.WritableStream;
}

export async function runInteractive(session: SupervisorSession, options: InteractiveOptions): Promise<number> {
  const recorder = new InputRecorder();
  const ownsSessionId = !session.claudeArgs.some((a) => SESSION_CHOOSING_ARGS.includes(a.split('=')[0]!));
  const launchId = ownsSessionId ? crypto.randomUUID() : undefined;
  const bindSession = (id: string) => {
    if (session.sessionId === id) return;
    session.setSessionId(id);
    recorder.bind(inputLogPath(session.configDir, id));
    running.update({ session_id: id });
  };

  const channel = await startStopChannel({
    dir: cccDir(session.configDir),
    onStop: async (input) => {
      const parsed = parseStopInput(input);
      if (!parsed.ok) {
        session.logger.warn(`malformed Stop hook input: ${parsed.error}`);
        return '';
      }
      bindSession(parsed.value.sessionId);
      const decision = await reviewStop(parsed.value, session.reviewDeps());
      session.emit(event({ kind: 'phase', phase: decision.action === 'block' ? 'agent' : 'idle' }));
      return hookOutput(decision, { showVerdict: true });
    },
    onError: (error) => session.logger.error(`stop channel: ${error.message}`),
  });

  const timeout = session.config.supervisor.timeout_seconds * Math.max(1, session.pipeline.length) + 30;
  const hook = stopHookSettings({ argv: [...selfCommand(), 'supervisor-hook', '--proxy'], timeoutSeconds: timeout });
  const args = withLaunchSettings([...(launchId ? ['--session-id', launchId] : []), ...session.claudeArgs], hook, session.cwd);
  const command = [session.config.claude.command, ...session.claudeArgs];
  const size = { cols: process.stdout.columns || 80, rows: process.stdout.rows || 24 };
  const observer = options.observe ? await observeSession(session, { command, size, stderr: options.stderr, awaitOutputSource: true }) : undefined;
  const proxy = startAgentProxy({
    command: session.config.claude.command,
    args,
    cwd: session.cwd,
    env: session.agentEnv({ [SOCKET_ENV]: channel.socketPath, [TOKEN_ENV]: channel.token }),
    observe: observer ? { tailBytes: observer.tailBytes } : undefined,
    onError: (message) => session.logger.error(message),
  });
  const running = registerRunningSession(session.configDir, { pid: process.pid, cwd: session.cwd, command, observer_url: observer?.url });
  if (launchId) bindSession(launchId);
  void proxy.pid.then((pid) => session.logger.info('interactive session started', { agent_pid: pid ?? null, proxy: proxy.kind }));

  const title = reviewTitleUpdater((bytes) => proxy.inject(bytes));
  const subscriptions = [
    proxy.input$.subscribe((chunk) => recorder.record(chunk)),
    session.events$.subscribe((e) => title.onEvent(e)),
  ];
  const undoObserver: Array<() => void> = [];
  if (observer) {
    subscriptions.push(proxy.output$.subscribe((chunk) => observer.publishPty(chunk)));
    undoObserver.push(observer.onInput((data) => proxy.sendToAgent(data)));
    undoObserver.push(proxy.onResize(() => observer.resize(proxy.size().cols, proxy.size().rows)));
    subscriptions.push(proxy.gap$.subscribe((lost) => observer.outputGap(lost)));
    // The relay copies output only while someone watches and keeps the tail for a joiner's screen;
    // the Node proxy always copies (its `watch` resolves at once, it has no tail to send).
    subscriptions.push(proxy.tail$.subscribe((tail) => observer.replaceTail(tail)));
    observer.setOutputSource(proxy);
  }
  const emergencyRestore = () => proxy.restoreTerminal();
  process.once('exit', emergencyRestore);
  const stopTail = launchId || session.sessionId ? tailSessionTranscript(session, () => session.sessionId) : () => {};

  try {
    const exit = await proxy.exit;
    const code = exit.signal ? 128 + exit.signal : exit.exitCode;
    session.logger.info('agent exited', { exit_code: exit.exitCode, signal: exit.signal ?? null });
    session.emit(event({ kind: 'end', exit_code: code }));
    return code;
  } finally {
    title.stop();
    for (const s of subscriptions) s.unsubscribe();
    stopTail();
    emergencyRestore();
    process.off('exit', emergencyRestore);
    await recorder.flush();
    await channel.close();
    for (const undo of undoObserver) undo();
    observer?.detach();
    await observer?.close();
    await running.remove();
    // The URL printed before the TUI started has scrolled away under it.
    if (observer) options.stderr.write(`Observer: ${observer.url} (closed with the session)\n`);
  }
}
