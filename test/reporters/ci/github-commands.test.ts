/**
 * Workflow commands and step outputs as ccc writes them, read back the way GitHub's runner reads
 * them (test/support/github-runner.ts): any text comes back exactly and stays inside its command.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeCommandData, escapeCommandProperty, outputEntry, stopCommandsToken, workflowCommand } from '../../../src/reporters/ci/github-commands.js';
import { runnerCommands, runnerOutputs } from '../../support/github-runner.js';

const nasty = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.constantFrom('%', '%25', '%0A', '%0D', '%3A', '%2C', '::', ':', ',', '=', '\r', '\n', '\r\n', ' ', 'a', 'é', '::error::x', 'ghadelimiter_', '<<'))
    .map((parts) => parts.join('')),
);

describe('workflow commands', () => {
  it('escapes data and properties as the toolkit does', () => {
    expect(escapeCommandData('50% done\r\nnext: a,b')).toBe('50%25 done%0D%0Anext: a,b');
    expect(escapeCommandProperty('50% done\r\nnext: a,b')).toBe('50%25 done%0D%0Anext%3A a%2Cb');
    expect(workflowCommand('error', { title: 'ccc: limit', file: undefined }, 'line 1\nline 2')).toBe('::error title=ccc%3A limit::line 1%0Aline 2');
  });

  it('any message and title come back exactly, as one command, whatever they hold', () => {
    // The runner trims the properties as a whole, so a last property's trailing spaces are lost
    // (ccc's titles never end in one).
    const title = nasty.filter((t) => t === t.trimEnd());
    fc.assert(
      fc.property(title, nasty, (title, message) => {
        const line = workflowCommand('error', { title }, message);
        expect(line).not.toMatch(/[\r\n]/);
        const parsed = runnerCommands(`before\n${line}\nafter\n`);
        expect(parsed).toHaveLength(1);
        expect(parsed[0]!.name).toBe('error');
        expect(parsed[0]!.message).toBe(message);
        // The runner drops a property whose value is empty.
        expect(parsed[0]!.properties).toEqual(title === '' ? {} : { title });
      }),
      { numRuns: 500 },
    );
  });

  it('stop-commands: nothing between the token lines is a command', () => {
    const token = stopCommandsToken();
    const out = `::stop-commands::${token}\n::error::forged\n  ::add-mask::secret\n::${token}::\n${workflowCommand('notice', {}, 'real')}\n`;
    expect(runnerCommands(out)).toEqual([{ name: 'notice', properties: {}, message: 'real' }]);
    expect(stopCommandsToken()).not.toBe(token);
  });
});

describe('step outputs', () => {
  it('any values come back exactly by the runner rules, several outputs in one file', () => {
    fc.assert(
      fc.property(fc.array(nasty, { minLength: 1, maxLength: 4 }), (values) => {
        const file = values.map((value, i) => outputEntry(`out_${i}`, value)).join('');
        expect(runnerOutputs(file)).toEqual(Object.fromEntries(values.map((value, i) => [`out_${i}`, value])));
      }),
      { numRuns: 500 },
    );
  });

  it('never uses a delimiter the value holds', () => {
    const delimiters = ['ghadelimiter_A', 'ghadelimiter_A', 'ghadelimiter_B'];
    const entry = outputEntry('feedback', 'x\nghadelimiter_A\ny', () => delimiters.shift()!);
    expect(entry).toBe('feedback<<ghadelimiter_B\nx\nghadelimiter_A\ny\nghadelimiter_B\n');
    expect(runnerOutputs(entry)).toEqual({ feedback: 'x\nghadelimiter_A\ny' });
    expect(() => outputEntry('bad name', 'v')).toThrow(/not an output name/);
  });
});
