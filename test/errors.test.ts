/**
 * src/errors.ts: `errorText` says what went wrong for anything a `catch` can receive; a `CccError`
 * is known by its brand whichever copy of the package made it; each code's data is typed (the
 * `@ts-expect-error` lines fail `npm run typecheck` when a wrong shape stops being refused); and
 * docs/exit-codes.md's table of codes says what the code does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CccError, DEFAULT_EXIT_CODE, errorText, ExitCode, isCccError } from '../src/errors.js';
import { repoRoot } from './support/claude-env.js';

describe('errorText', () => {
  it("gives an Error's message, a CccError's too", () => {
    expect(errorText(new Error('disk full'))).toBe('disk full');
    expect(errorText(new CccError('USAGE', 'bad flag'))).toBe('bad flag');
  });

  it('gives any other thrown value as text', () => {
    expect(errorText('plain string')).toBe('plain string');
    expect(errorText(42)).toBe('42');
    expect(errorText(undefined)).toBe('undefined');
    expect(errorText(null)).toBe('null');
    expect(errorText({ toString: () => 'custom' })).toBe('custom');
  });
});

/** The built module: another copy of the class than the one this test imports from src/. */
async function otherCopy(): Promise<typeof import('../src/errors.js')> {
  return (await import(pathToFileURL(path.join(repoRoot, 'dist', 'errors.js')).href)) as typeof import('../src/errors.js');
}

describe('isCccError', () => {
  it('knows a CccError made by another copy of the package, where instanceof does not', async () => {
    const copy = await otherCopy();
    expect(copy.CccError).not.toBe(CccError);
    const error = new copy.CccError('SESSION_SUPERVISED', 'taken', { data: { sessionId: 's1', pid: 42 } });
    expect(error instanceof CccError).toBe(false);
    expect(isCccError(error)).toBe(true);
    expect(isCccError(error, 'SESSION_SUPERVISED')).toBe(true);
    expect(isCccError(error, 'USAGE', 'INTERNAL')).toBe(false);
    expect(copy.isCccError(new CccError('USAGE', 'x'))).toBe(true);
  });

  it('is not fooled by an object with the same fields, nor by a plain error', () => {
    const lookalike = Object.assign(new Error('taken'), { code: 'SESSION_SUPERVISED', data: {}, exitCode: 2 });
    expect(isCccError(lookalike)).toBe(false);
    expect(isCccError(new Error('x'))).toBe(false);
    expect(isCccError('USAGE')).toBe(false);
    expect(isCccError(null)).toBe(false);
  });

  it('narrows data to the fields of the code', () => {
    const error: unknown = new CccError('SESSION_SUPERVISED', 'taken', { data: { sessionId: 's1', pid: 42 } });
    if (!isCccError(error, 'SESSION_SUPERVISED')) throw new Error('not recognised');
    const pid: number = error.data.pid;
    expect(pid).toBe(42);
  });
});

describe('CccError', () => {
  it('takes its exit code from the code, and exit 1 for a code this copy does not know', () => {
    expect(new CccError('USAGE', 'x').exitCode).toBe(ExitCode.usage);
    expect(new CccError('CHECKER_TIMEOUT', 'x').exitCode).toBe(ExitCode.checkerFailed);
    expect(new CccError('USAGE', 'x', { exitCode: 7 }).exitCode).toBe(7);
    const fromNewerCopy = 'SOMETHING_NEW' as 'USAGE';
    expect(new CccError(fromNewerCopy, 'x').exitCode).toBe(ExitCode.error);
  });

  it('checks data against the code at compile time', () => {
    const made = [
      new CccError('SESSION_SUPERVISED', 'x', { data: { sessionId: 's', pid: 1 } }),
      // @ts-expect-error: SESSION_SUPERVISED must say which session and which pid
      new CccError('SESSION_SUPERVISED', 'x'),
      // @ts-expect-error: pid is a number
      new CccError('SESSION_SUPERVISED', 'x', { data: { sessionId: 's', pid: '1' } }),
      // @ts-expect-error: USAGE has no `checker`
      new CccError('USAGE', 'x', { data: { checker: 'claude' } }),
      // A plugin may add fields of its own to a checker's failure.
      new CccError('CHECKER_FAILED', 'x', { data: { gate: 'main' } }),
    ];
    expect(made.map((error) => error.code)).toEqual(['SESSION_SUPERVISED', 'SESSION_SUPERVISED', 'SESSION_SUPERVISED', 'USAGE', 'CHECKER_FAILED']);
  });
});

describe('docs/exit-codes.md', () => {
  it('has one row per error code, with the exit code the code gives', () => {
    const text = fs.readFileSync(path.join(repoRoot, 'docs', 'exit-codes.md'), 'utf8');
    const rows = [...text.matchAll(/^\| `([A-Z_]+)` \| [^|]+ \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);
    expect(Object.fromEntries(rows)).toEqual(DEFAULT_EXIT_CODE);
    expect(rows.length).toBe(Object.keys(DEFAULT_EXIT_CODE).length);
  });
});
