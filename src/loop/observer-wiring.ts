/**
 * An interactive session's observers and its byte path, wired both ways (docs/design/streams.md):
 * the pty's output, its gaps, the tail kept for joiners and the terminal's size go to the
 * observer hub; what observers type goes to the agent.
 */
import type { ObserverServer } from '../observer/observer-server.js';
import type { BytePath } from '../pty/byte-path.js';

/** The byte path's copies ─► the observer hub; observers' input (also told to `onInput`) and the terminal's size ─► back. */
export function connectObserver(observer: ObserverServer, proxy: BytePath, onInput: (data: Buffer) => void): () => void {
  const subscriptions = [
    proxy.ptyOutput$.subscribe((chunk) => observer.publishPty(chunk)),
    proxy.gap$.subscribe((lost) => observer.outputGap(lost)),
    // Output is copied only while someone watches; the tail kept meanwhile is a joiner's screen.
    proxy.tail$.subscribe((tail) => observer.replaceTail(tail)),
    proxy.resize$.subscribe(({ cols, rows }) => observer.resize(cols, rows)),
  ];
  const offInput = observer.onInput((data) => {
    proxy.sendToAgent(data);
    onInput(data);
  });
  observer.setOutputSource(proxy);
  return () => {
    for (const s of subscriptions) s.unsubscribe();
    offInput();
  };
}
