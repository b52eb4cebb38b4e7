import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSupervisorArgs } from '../../src/cli/supervisor-args.js';

describe('parseSupervisorArgs', () => {
  it('takes ccc options and passes everything else to claude in order', () => {
    const args = parseSupervisorArgs([
      '--supervisor',
      '-p',
      'fix it',
      '--checker',
      'rule',
      '--model',
      'opus',
      '--max-iterations=5',
      '--json',
      '--',
      '--allowedTools',
      'Bash',
    ]);
    expect(args.task).toBe('fix it');
    expect(args.json).toBe(true);
    expect(args.flags.supervisor).toEqual({ checkers: ['rule'], max_iterations: 5 });
    expect(args.claudeArgs).toEqual(['--model', 'opus', '--allowedTools', 'Bash']);
  });

  it('accepts --observe with and without a port', () => {
    expect(parseSupervisorArgs(['--observe']).observe).toBe(0);
    expect(parseSupervisorArgs(['--observe=8123']).flags.observer).toEqual({ port: 8123 });
  });

  it('rejects bad values with a usage error that names the flag', () => {
    expect(() => parseSupervisorArgs(['--max-iterations', 'lots'])).toThrow(/--max-iterations must be a whole number/);
    expect(() => parseSupervisorArgs(['--timeout'])).toThrow(/--timeout needs a value/);
    expect(() => parseSupervisorArgs(['--log-level', 'loud'])).toThrow(/--log-level must be one of/);
  });

  it('never loses a claude argument after --', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (rest) => {
        expect(parseSupervisorArgs(['--supervisor', '--', ...rest]).claudeArgs).toEqual(rest);
      }),
    );
  });
});
