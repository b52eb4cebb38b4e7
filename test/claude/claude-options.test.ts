/**
 * ccc reads a user's claude arguments with its own table of claude's options; the table must be
 * the pinned claude's, option for option and arity for arity, or a value could be read as a flag.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLAUDE_OPTIONS, readClaudeArgs, type ClaudeOptionArity } from '../../src/claude/claude-options.js';
import { claudeBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';

/** The options section of `claude --help`: each option's spellings and how its value is written. */
function helpOptions(help: string): Map<string, ClaudeOptionArity> {
  const section = help.slice(help.indexOf('\nOptions:'), help.indexOf('\nCommands:'));
  const out = new Map<string, ClaudeOptionArity>();
  for (const line of section.split('\n')) {
    const spec = /^ {2}(-[^ ].*?)(?: {2,}|$)/.exec(line)?.[1];
    if (!spec) continue;
    const names = spec
      .replace(/[<[].*$/, '')
      .split(/,\s*/)
      .map((n) => n.trim())
      .filter((n) => n.startsWith('-'));
    const arity: ClaudeOptionArity = /<[^>]*\.\.\.>/.test(spec)
      ? 'variadic'
      : /<[^>]+>/.test(spec)
        ? 'required'
        : /\[[^\]]+\]/.test(spec)
          ? 'optional'
          : 'none';
    for (const name of names) out.set(name, arity);
  }
  return out;
}

describe("claude's options", () => {
  it('the table lists exactly the options of the pinned claude --help, with the same arity', async () => {
    const help = await runProcess(claudeBin, ['--help'], {
      env: { PATH: process.env.PATH, HOME: '/nonexistent', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' },
    });
    const listed = helpOptions(help.stdout);
    expect(listed.size).toBeGreaterThan(50);
    const table = new Map(CLAUDE_OPTIONS.flatMap((o) => o.names.map((n) => [n, o.arity] as const)));
    expect(Object.fromEntries(table)).toEqual(Object.fromEntries(listed));
  });

  it('reads values, optional values, variadic lists, = forms, short clusters and -- as claude does', () => {
    const read = (args: string[]) =>
      readClaudeArgs(args).map((w) => (w.kind === 'option' ? `${w.canonical}[${w.values.join('|')}]` : `pos(${w.words.join(' ')})`));
    expect(read(['--append-system-prompt', '-c', '--continue'])).toEqual(['--append-system-prompt[-c]', '--continue[]']);
    expect(read(['-r', '--model', 'opus'])).toEqual(['--resume[]', '--model[opus]']);
    expect(read(['-r', 'my-title', 'prompt'])).toEqual(['--resume[my-title]', 'pos(prompt)']);
    expect(read(['--add-dir', 'a', 'b', '--resume=x'])).toEqual(['--add-dir[a|b]', '--resume[x]']);
    expect(read(['-cd'])).toEqual(['--continue[]', '--debug[]']);
    expect(read(['-rabc'])).toEqual(['--resume[abc]']);
    expect(read(['-cr', 'abc'])).toEqual(['--continue[]', '--resume[abc]']);
    expect(read(['--unknown-flag', 'word', '--', '--continue'])).toEqual(['--unknown-flag[]', 'pos(word)', 'pos(-- --continue)']);
  });

  it('never throws, and its words are the arguments again (short clusters written out one by one)', () => {
    const word = fc.oneof(
      fc.constantFrom(
        '-c',
        '-r',
        '-cd',
        '-rX',
        '--continue',
        '--resume',
        '--resume=x',
        '--fork-session',
        '--session-id',
        '--add-dir',
        '--model',
        '--',
        '-',
        '-p',
        '-zz',
        '--x=y',
      ),
      fc.string({ maxLength: 6 }).filter((s) => !s.startsWith('-')),
    );
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (args) => {
        const words = readClaudeArgs(args).flatMap((w) => w.words);
        // A required value is the next word whatever it looks like (`--model -cd`): only other clusters are written out.
        let valueNext = false;
        const expanded = args.flatMap((a) => {
          const isValue = valueNext;
          valueNext = !isValue && (a === '--session-id' || a === '--model');
          if (isValue) return [a];
          return a === '-cd' ? ['-c', '-d'] : a === '-rX' ? ['-r', 'X'] : [a];
        });
        const end = args.indexOf('--');
        if (end === -1) expect(words).toEqual(expanded);
        else expect(words.slice(-(args.length - end))).toEqual(args.slice(end));
      }),
    );
  });
});
