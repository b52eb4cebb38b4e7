/**
 * The interactive session's Stop hook calls (src/drivers/interactive-stops.ts), with the loop's side
 * played by hand: calls are taken in the order they came, each answered by its own answer; a
 * taken call that fails fails alone; closing answers the waiting calls '' and ends the taking.
 */
import { describe, expect, it } from 'vitest';
import { HookCalls } from '../../src/drivers/interactive-stops.js';
import type { StopEvent } from '../../src/stop/stop-event.js';

const hook = () => new AbortController().signal;

function stop(sessionId: string): StopEvent {
  return { sessionId, cwd: '/project', stopHookActive: false, backgroundTasks: [], raw: {} };
}

describe('the hook calls', () => {
  it('are taken in the order they came, each answered by its own answer', async () => {
    const calls = new HookCalls();
    const first = calls.call(stop('first'), hook());
    const second = calls.call(stop('second'), hook());
    const a = await calls.next();
    expect(a?.stop.sessionId).toBe('first');
    const b = await calls.next();
    expect(b?.stop.sessionId).toBe('second');
    b!.answer('answer of second');
    a!.answer('answer of first');
    await expect(first).resolves.toBe('answer of first');
    await expect(second).resolves.toBe('answer of second');
  });

  it('keep the loop waiting until a call comes, with its own hook signal', async () => {
    const calls = new HookCalls();
    const taken = calls.next();
    const gone = new AbortController();
    const answer = calls.call(stop('late'), gone.signal);
    const call = await taken;
    expect(call?.hookGone).toBe(gone.signal);
    call!.answer('');
    await expect(answer).resolves.toBe('');
  });

  it('fail only the call whose answer failed', async () => {
    const calls = new HookCalls();
    const first = calls.call(stop('first'), hook());
    const second = calls.call(stop('second'), hook());
    (await calls.next())!.fail(new Error('the review broke'));
    await expect(first).rejects.toThrow('the review broke');
    (await calls.next())!.answer('allowed');
    await expect(second).resolves.toBe('allowed');
  });

  it('once closed, answer the waiting calls and later ones with nothing, and end the taking', async () => {
    const calls = new HookCalls();
    const taken = calls.call(stop('taken'), hook());
    const waiting = calls.call(stop('waiting'), hook());
    const call = await calls.next();
    calls.close();
    await expect(waiting).resolves.toBe('');
    await expect(calls.call(stop('too late'), hook())).resolves.toBe('');
    await expect(calls.next()).resolves.toBeUndefined();
    // The call the loop holds is still its to answer.
    call!.answer('decided');
    await expect(taken).resolves.toBe('decided');
  });

  it('end a loop that was waiting when they close', async () => {
    const calls = new HookCalls();
    const taken = calls.next();
    calls.close();
    await expect(taken).resolves.toBeUndefined();
  });
});
