import type { Frame } from '../frames/frame.js';

/** The last N frames of the agent, for checkers' context; bounded so a long session cannot grow it. */
export class FrameWindow {
  private readonly frames: Frame[] = [];
  constructor(private readonly capacity: number) {}

  push(frame: Frame): void {
    this.frames.push(frame);
    if (this.frames.length > this.capacity) this.frames.splice(0, this.frames.length - this.capacity);
  }

  items(): readonly Frame[] {
    return this.frames;
  }
}
