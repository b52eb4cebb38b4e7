/**
 * Joiners that arrive while the session already has `max_observers` wait before they are answered.
 * A client that retries the moment it is refused (a page reloading in a loop, a script, the
 * observer-churn bench) otherwise costs ccc a WebSocket handshake and a close at every turn of its
 * loop, thousands a second, on the CPU the agent's terminal shares. Held, each such client makes
 * one try a second and costs ccc an idle socket and a timer meanwhile; a place that frees while
 * one waits lets it in. Past `maxHeld` at once, a new one is dropped unanswered: the cheapest
 * refusal there is.
 */
import type { Duplex } from 'node:stream';

export interface FullHold {
  /** Runs `then` after the hold unless the socket closed meanwhile; or drops the socket when too many wait. */
  hold(socket: Duplex, then: () => void): 'held' | 'dropped';
  /** Drops every socket still waiting (the server closes). */
  dispose(): void;
}

export function fullHold(options: { holdMs: number; maxHeld: number }): FullHold {
  const held = new Map<Duplex, NodeJS.Timeout>();
  return {
    hold(socket, then) {
      if (held.size >= options.maxHeld) {
        socket.destroy();
        return 'dropped';
      }
      const timer = setTimeout(() => {
        held.delete(socket);
        if (!socket.destroyed) then();
      }, options.holdMs);
      held.set(socket, timer);
      socket.once('close', () => {
        clearTimeout(timer);
        held.delete(socket);
      });
      return 'held';
    },
    dispose() {
      for (const [socket, timer] of held) {
        clearTimeout(timer);
        socket.destroy();
      }
      held.clear();
    },
  };
}
