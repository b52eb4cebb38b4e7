/**
 * Starts the remote observer of a supervised session (docs/design/observer.md) and keeps it on the
 * session's id: terminal bytes go out from the byte path, frames and supervisor events through its
 * reporter (src/reporters/observer.ts); observer input comes in only when `allow_input`
 * is on. The URL is printed on stderr and recorded in `sessions/<pid>.json`.
 */
import { Writable } from 'node:stream';
import { startObserver, type ObserverServer } from '../observer/observer-server.js';
import type { SupervisorSession } from '../sessions/supervisor-session.js';

export async function observeSession(
  session: SupervisorSession,
  options: { command: string[]; size: { cols: number; rows: number }; stderr: NodeJS.WritableStream; awaitOutputSource?: boolean },
): Promise<ObserverServer & { detach(): void }> {
  const o = session.config.observer;
  const server = await startObserver({
    host: o.host,
    port: o.port,
    token: o.token,
    allowInput: o.allow_input,
    scrollbackBytes: o.scrollback_bytes,
    maxObservers: o.max_observers,
    allowedHosts: o.allowed_hosts,
    hello: {
      session_id: session.sessionId,
      cwd: session.cwd,
      command: options.command,
      cols: options.size.cols,
      rows: options.size.rows,
      started_at: new Date().toISOString(),
    },
    logger: session.logger,
    ...(options.awaitOutputSource ? { awaitOutputSource: true } : {}),
  });
  options.stderr.write(`Observer: ${server.url}\n`);
  session.logger.info('observer started', { url: server.url.replace(/token=[^&]+/, 'token=…') });
  session.observerUrl = server.url;
  const onId = session.sessionId$.subscribe((id) => server.setSession(id));
  return Object.assign(server, { detach: () => onId.unsubscribe() });
}

/** Headless runs have no pty: observers see the text ccc prints, with newlines a terminal renders. */
export function terminalText(text: string): Buffer {
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'));
}

/** A stream that writes to `target` and hands a copy to `copy` (headless output for observers). */
export function teeStream(target: NodeJS.WritableStream, copy: (chunk: Buffer) => void): NodeJS.WritableStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      target.write(chunk);
      copy(terminalText(chunk.toString()));
      done();
    },
  });
}
