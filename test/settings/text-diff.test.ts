import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/settings/text-diff.js';

describe('the --dry-run diff', () => {
  it('shows added lines with context and a hunk header', () => {
    const before = '{\n  "a": 1,\n  "b": 2\n}\n';
    const after = '{\n  "a": 1,\n  "b": 2,\n  "c": 3\n}\n';
    expect(unifiedDiff(before, after, { fromLabel: 'f', toLabel: 'f (after)' })).toBe(
      ['--- f', '+++ f (after)', '@@ -1,4 +1,5 @@', ' {', '   "a": 1,', '-  "b": 2', '+  "b": 2,', '+  "c": 3', ' }', ''].join('\n'),
    );
  });

  it('shows a new file as all added, and no diff for equal texts', () => {
    expect(unifiedDiff('', '{}\n', { fromLabel: 'x', toLabel: 'y' })).toBe('--- x\n+++ y\n@@ -0,0 +1,1 @@\n+{}\n');
    expect(unifiedDiff('same\n', 'same\n', { fromLabel: 'x', toLabel: 'y' })).toBe('');
  });

  it('keeps distant changes in separate hunks', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const changed = [...lines];
    changed[1] = 'changed 1';
    changed[18] = 'changed 18';
    const diff = unifiedDiff(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`, { fromLabel: 'a', toLabel: 'b' });
    expect(diff.match(/^@@/gm)).toHaveLength(2);
    expect(diff).toContain('@@ -1,5 +1,5 @@');
    expect(diff).toContain('@@ -16,5 +16,5 @@');
  });
});
