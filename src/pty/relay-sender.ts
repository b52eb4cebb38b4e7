/**
 * ccc's frames to the relay (inject, send to the agent, signal, tee on/off). What is sent before
 * the relay runs waits and goes out, in order, once its channel is connected; once disposed (the
 * relay ended or never started) or once the channel is destroyed, frames are dropped.
 */
import type { Socket } from 'node:net';
import type { Disposable } from '../lifetime/disposable-store.js';
import { encodeRelayFrame } from './relay-frames.js';

export class RelaySender implements Disposable {
  #channel: Socket | undefined;
  readonly #early: Buffer[] = [];
  #closed = false;

  /** Whether a frame sent now can still reach the relay. */
  get open(): boolean {
    return !this.#closed && !this.#channel?.destroyed;
  }

  connect(channel: Socket): void {
    this.#channel = channel;
    for (const frame of this.#early.splice(0)) channel.write(frame);
  }

  send(type: string, payload: Buffer): void {
    if (this.#closed) return;
    if (!this.#channel) this.#early.push(encodeRelayFrame(type, payload));
    else if (!this.#channel.destroyed && this.#channel.writable) this.#channel.write(encodeRelayFrame(type, payload));
  }

  dispose(): void {
    this.#closed = true;
    this.#early.length = 0;
  }
}
