/** The built-in checkers' options through their zod schemas: any input is options or one clear PLUGIN_INVALID error. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hookChecker } from '../../src/checkers/hook-checker.js';
import { parseRuleOptions } from '../../src/checkers/rule-options.js';
import { isCccError } from '../../src/errors.js';

const keys = fc.constantFrom('commands', 'must_match', 'must_not_match', 'require_marker', 'name', 'timeout_seconds', 'command', 'comands', 'args');
const values = fc.oneof(fc.anything(), fc.array(fc.oneof(fc.string(), fc.constantFrom('(', '/x/gi', '[a-', ' '), fc.integer())), fc.double());
const options = fc.dictionary(keys, values);

function outcome(make: () => unknown): void {
  try {
    make();
  } catch (error) {
    expect(isCccError(error) && error.code === 'PLUGIN_INVALID', String(error)).toBe(true);
    expect((error as Error).message).toMatch(/^Invalid option "[^"]+" of the (rule|hook) checker in supervisor\.checkers: got .*; expected .+\.$/s);
  }
}

describe('built-in checker options', () => {
  it('rule: any options parse or fail with one message naming the key, the value and what is allowed', () => {
    fc.assert(fc.property(options, (raw) => outcome(() => parseRuleOptions(raw))));
  });

  it('hook: likewise', () => {
    fc.assert(fc.property(options, (raw) => outcome(() => hookChecker(raw))));
  });

  it('an unknown key is named before a bad value, with the keys listed as documented', () => {
    expect(() => parseRuleOptions({ timeout_seconds: -1, comands: ['x'] })).toThrow(
      'Invalid option "comands" of the rule checker in supervisor.checkers: got ["x"]; expected one of the keys commands, must_match, must_not_match, require_marker, name, timeout_seconds (this one is unknown).',
    );
    expect(() => hookChecker({ command: ' ' })).toThrow(
      'Invalid option "command" of the hook checker in supervisor.checkers: got " "; expected the command line of the hook, a non-empty string.',
    );
  });
});
