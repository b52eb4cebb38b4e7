/** Where a `claude --version` line stands against the supported range: the parsing and the words. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import {
  claudeSupport,
  claudeVersionOf,
  compareVersions,
  MINIMUM_CLAUDE,
  NEWEST_TESTED_CLAUDE,
  unsupportedClaudeText,
} from '../../src/claude/claude-support.js';

describe('claude support', () => {
  it('reads the version at the start of the line claude prints', () => {
    expect(claudeVersionOf('2.1.330 (Claude Code)')).toBe('2.1.330');
    expect(claudeVersionOf('1.0.100')).toBe('1.0.100');
    expect(claudeVersionOf('garbage {not json')).toBeUndefined();
    expect(claudeVersionOf('Claude Code 2.1.330')).toBeUndefined();
    expect(claudeVersionOf('(claude --version failed: exit code 1)')).toBeUndefined();
    expect(claudeVersionOf('2.1')).toBeUndefined();
  });

  it('the minimum and the newest tested bound the range; each side says so', () => {
    expect(claudeSupport('1.0.100 (Claude Code)')).toEqual({ kind: 'too-old', version: '1.0.100' });
    expect(claudeSupport('2.1.308 (Claude Code)')).toEqual({ kind: 'too-old', version: '2.1.308' });
    expect(claudeSupport(`${MINIMUM_CLAUDE} (Claude Code)`)).toEqual({ kind: 'supported', version: MINIMUM_CLAUDE, newerThanTested: false });
    expect(claudeSupport(`${NEWEST_TESTED_CLAUDE} (Claude Code)`)).toEqual({ kind: 'supported', version: NEWEST_TESTED_CLAUDE, newerThanTested: false });
    expect(claudeSupport('2.1.1000 (Claude Code)')).toMatchObject({ kind: 'supported', newerThanTested: true });
    expect(claudeSupport('10.0.0')).toMatchObject({ kind: 'supported', newerThanTested: true });
    expect(claudeSupport('garbage {not json')).toEqual({ kind: 'unreadable', line: 'garbage {not json' });
  });

  it('compares numerically, not as text', () => {
    expect(compareVersions('2.1.99', '2.1.309')).toBeLessThan(0);
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('2.1.309', '2.1.309')).toBe(0);
  });

  it('the refusal names the version, the minimum and the install line; a supported claude has none', () => {
    expect(unsupportedClaudeText(claudeSupport('1.0.100 (Claude Code)'), '/bin/claude')).toMatch(
      /^claude 1\.0\.100 \(\/bin\/claude\) is older than .*npm install -g @anthropic-ai\/claude-code@latest/,
    );
    expect(unsupportedClaudeText(claudeSupport(`${NEWEST_TESTED_CLAUDE} (Claude Code)`), '/bin/claude')).toBeUndefined();
  });

  it('the newest tested is the pinned devDependency', () => {
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@anthropic-ai/claude-code']!.replace(/^[\^~=]/, '')).toBe(NEWEST_TESTED_CLAUDE);
  });

  it('any line: a standing, never a throw, and refusal text without control characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (line) => {
        const support = claudeSupport(line);
        const text = unsupportedClaudeText(support, '/bin/claude');
        if (support.kind === 'supported') expect(text).toBeUndefined();
        else expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
      }),
    );
  });
});
