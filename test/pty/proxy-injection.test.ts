import { describe, expect, it } from 'vitest';
import { PendingInjection } from '../../src/pty/proxy-injection.js';

function injection() {
  const written: string[] = [];
  const pending = new PendingInjection({ injectIdleMs: 60_000, lastDataAt: () => Date.now(), write: (bytes) => written.push(bytes.toString()) });
  return { pending, written };
}

describe('an injection on the Node proxy', () => {
  it('waits for the end of a sequence the agent is writing, then lands', () => {
    const { pending, written } = injection();
    pending.afterOutput(Buffer.from('\x1b]0;half a ti'));
    pending.add('\x1b]0;ccc\x07');
    expect(written).toEqual([]);
    pending.afterOutput(Buffer.from('tle\x07'));
    expect(written).toEqual(['\x1b]0;ccc\x07']);
    pending.dispose();
  });

  it('is dropped once disposed: nothing lands after the terminal is restored', () => {
    const { pending, written } = injection();
    pending.afterOutput(Buffer.from('\x1b[31'));
    pending.add('held');
    pending.dispose();
    pending.afterOutput(Buffer.from('m'));
    pending.add('\x1b]0;ccc: waiting for a prompt\x07');
    expect(written).toEqual([]);
  });
});
