/** One WARN per process for failed writes; held while a TUI owns the terminal, printed once it is back. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdWriteWarnings, isSurvivableWriteError, warnWriteFailed } from '../../src/state/write-failure.js';

const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('write failures', () => {
  it('are survivable for a full or read-only disk, not for a bug', () => {
    expect(isSurvivableWriteError(full)).toBe(true);
    expect(isSurvivableWriteError(Object.assign(new Error('x'), { code: 'EROFS' }))).toBe(true);
    expect(isSurvivableWriteError(new TypeError('not a disk problem'))).toBe(false);
  });

  it('warn once, held while held and shown at once to the holder, on stderr at release', () => {
    const stderr = new PassThrough();
    let written = '';
    stderr.on('data', (d: Buffer) => (written += d.toString()));
    const shown: string[] = [];
    const release = holdWriteWarnings((line) => shown.push(line), stderr);
    warnWriteFailed('/cfg/ccc/supervisor-a.json', full, stderr);
    warnWriteFailed('/cfg/ccc/supervisor-a.log', full, stderr);
    expect(shown).toEqual([expect.stringMatching(/^WARN: cannot write in \/cfg\/ccc \(ENOSPC.*state in memory.*Free some space/)]);
    expect(written).toBe('');
    release();
    expect(written.match(/WARN/g)).toHaveLength(1);
    expect(written).toMatch(/^ccc: WARN: cannot write in \/cfg\/ccc .*CCC_CONFIG_DIR/);
  });
});
