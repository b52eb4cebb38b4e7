/** The IPC message parsers: valid messages pass, anything else is refused without throwing. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseKeeperMessage, parseWorkerMessage } from '../../src/mcp/ipc/protocol.js';

describe('IPC protocol', () => {
  it('accepts the messages each side sends', () => {
    expect(parseKeeperMessage({ type: 'call', id: 3, name: 'self_test', arguments: {} })).toEqual({
      type: 'call',
      id: 3,
      name: 'self_test',
      arguments: {},
    });
    expect(parseKeeperMessage({ type: 'cancel', id: 3 })).toEqual({ type: 'cancel', id: 3 });
    expect(parseWorkerMessage({ type: 'ready', pid: 42, tools: [{ name: 't', inputSchema: { type: 'object' } }] })).toMatchObject({ type: 'ready', pid: 42 });
    expect(parseWorkerMessage({ type: 'result', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } })).toMatchObject({ type: 'result', id: 1 });
    expect(parseWorkerMessage({ type: 'pong', seq: 9 })).toEqual({ type: 'pong', seq: 9 });
  });

  it('refuses malformed messages: a result that is not a tool result, a tool without a schema, a negative id', () => {
    expect(parseWorkerMessage({ type: 'result', id: 1, result: { content: 'hi' } })).toBeUndefined();
    expect(parseWorkerMessage({ type: 'ready', pid: 42, tools: [{ name: 't' }] })).toBeUndefined();
    expect(parseKeeperMessage({ type: 'call', id: -1, name: 'x', arguments: {} })).toBeUndefined();
    expect(parseKeeperMessage({ type: 'reboot' })).toBeUndefined();
  });

  it('never throws on arbitrary input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        parseWorkerMessage(value);
        parseKeeperMessage(value);
      }),
    );
    fc.assert(
      fc.property(
        fc.record({
          type: fc.constantFrom('call', 'cancel', 'ping', 'ready', 'result', 'pong', 'feedback-open'),
          id: fc.anything(),
          seq: fc.anything(),
          result: fc.anything(),
          tools: fc.anything(),
        }),
        (value) => {
          parseWorkerMessage(value);
          parseKeeperMessage(value);
        },
      ),
    );
  });
});
