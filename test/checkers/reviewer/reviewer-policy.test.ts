import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardAnswer } from '../../../src/checkers/reviewer/guard-hook.js';
import { parseAllowRule } from '../../../src/checkers/reviewer/allow-rule.js';
import { decideToolUse, reviewerPolicy, type ReviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';

const npmProject = reviewerPolicy({ testCommand: 'npm test', ruleCommands: ['npm run build && npm test', 'make lint'], allow: [] });
const bash = (policy: ReviewerPolicy, command: string) => decideToolUse(policy, 'Bash', { command }).allow;

describe('what the reviewer may do', () => {
  it('reads with the read-only tools and may not edit, write or call other tools', () => {
    for (const tool of ['Read', 'Glob', 'Grep', 'LS', 'ToolSearch']) expect(decideToolUse(npmProject, tool, { file_path: 'x' }).allow).toBe(true);
    for (const tool of ['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'WebFetch', 'Task', 'mcp__github__create_issue']) {
      const decision = decideToolUse(npmProject, tool, {});
      expect(decision.allow).toBe(false);
      expect(decision.reason).toContain(`${tool} is not allowed: the reviewer may not change the project`);
    }
  });

  it('runs the detected test command, its usual spellings, the rule commands exactly, and read-only git', () => {
    for (const command of ['npm test', 'npm run test', 'npm t', '  npm   test ', 'CI=true npm test', 'npm test 2>&1 | tail -n 40', 'npm test 2>/dev/null', 'make lint',
      'npm run build && npm test', 'npm run build && npm test 2>&1 | tail -30', 'git status', 'git diff HEAD~1 -- src', 'git --no-pager log --oneline -5', 'git show HEAD:package.json',
      'cat package.json | grep test', 'ls -la src', 'cd /tmp && git status', 'npm test && git diff', 'git status; npm test 2>&1 | tail -5', 'grep -rn TODO src', 'npm test # the suite']) {
      expect([command, bash(npmProject, command)]).toEqual([command, true]);
    }
  });

  it('refuses everything that could change the project, also chained onto an allowed command', () => {
    for (const command of ['touch X', 'npm test && touch X', 'npm test; touch X', 'npm test || touch X', 'npm test | tee out.log', 'npm test > out.log', 'npm test >> out.log',
      'npm test\ntouch X', 'npm test &', 'echo $(touch X)', 'echo `touch X`', 'cat <(touch X)', 'npm test -- -u', 'npm run build', 'npm install', 'rm -rf dist',
      'git diff --output=patch.txt', 'git commit -am x', 'git checkout .', 'git stash', 'PATH=/tmp npm test', 'echo $HOME', 'sed -i s/a/b/ f', 'find . -delete',
      'npm test | sh', 'make lint install', 'ls && ', '']) {
      expect([command, bash(npmProject, command)]).toEqual([command, false]);
    }
  });

  it('says in the refusal what it may run instead', () => {
    const decision = decideToolUse(npmProject, 'Bash', { command: 'npm test && touch X' });
    expect(decision.reason).toContain('`touch X` is not allowed');
    expect(decision.reason).toContain('npm test; npm run test; npm t');
    expect(decision.reason).toContain('git status/diff/log/show');
  });

  it('supervisor.reviewer.allow widens it with Claude Code rules: exact, prefix, a whole tool', () => {
    const policy = reviewerPolicy({ testCommand: 'npm test', ruleCommands: [], allow: ['Bash(npm test:*)', 'Bash(make e2e)', 'Edit'] });
    expect(bash(policy, 'npm test -- --grep login')).toBe(true);
    expect(bash(policy, 'npm test -- -u && touch X')).toBe(false);
    expect(bash(policy, 'make e2e')).toBe(true);
    expect(bash(policy, 'make e2e clean')).toBe(false);
    expect(decideToolUse(policy, 'Edit', {}).allow).toBe(true);
    expect(decideToolUse(policy, 'Write', {}).allow).toBe(false);
    const anything = reviewerPolicy({ ruleCommands: [], allow: ['Bash'] });
    expect(bash(anything, 'touch X && rm -rf dist')).toBe(true);
  });

  it('reads permission rules in Claude Code syntax and rejects what it cannot read', () => {
    expect(parseAllowRule('Bash(npm run lint:*)')).toEqual({ ok: true, tool: 'Bash', command: 'npm run lint', prefix: true });
    expect(parseAllowRule('Bash(make check)')).toEqual({ ok: true, tool: 'Bash', command: 'make check', prefix: false });
    expect(parseAllowRule('WebFetch')).toEqual({ ok: true, tool: 'WebFetch', prefix: false });
    expect(parseAllowRule('Edit(src/**)').ok).toBe(false);
    expect(parseAllowRule('Bash()').ok).toBe(false);
    expect(parseAllowRule('rm -rf /').ok).toBe(false);
  });

  it('never allows a command with a write chained onto an allowed one, whatever the allowed one is (fuzzed)', () => {
    const allowed = fc.constantFrom('npm test', 'git status', 'git diff', 'make lint', 'npm run build && npm test', 'cat README.md', 'CI=1 npm test');
    const joiner = fc.constantFrom(' && ', '; ', ' || ', '\n', ' & ', ' | ', ';', '&&');
    const write = fc.constantFrom('touch X', 'rm -f package.json', 'git commit -m x', 'npm install left-pad', 'sh -c "touch X"', 'tee X');
    fc.assert(fc.property(allowed, joiner, write, (a, j, w) => !bash(npmProject, `${a}${j}${w}`)));
    fc.assert(fc.property(allowed, write, (a, w) => !bash(npmProject, `${a} $(${w})`) && !bash(npmProject, `${a} > X`)));
  });

  it('never throws on any command text or tool input (fuzzed)', () => {
    fc.assert(fc.property(fc.string(), (command) => typeof decideToolUse(npmProject, 'Bash', { command }).allow === 'boolean'));
    fc.assert(fc.property(fc.string(), fc.anything(), (tool, input) => typeof decideToolUse(npmProject, tool, input).allow === 'boolean'));
  });
});

describe('the guard hook', () => {
  it('answers in the PreToolUse hook format', () => {
    const answer = (tool: string, input: unknown) => JSON.parse(guardAnswer(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input }), JSON.stringify(npmProject)));
    expect(answer('Bash', { command: 'npm test' })).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', permissionDecisionReason: 'a verification command' },
    });
    expect(answer('Write', { file_path: 'x' }).hookSpecificOutput.permissionDecision).toBe('deny');
  });

  it('fails closed: no policy or unreadable input is an error (the process exits 2, which refuses the call)', () => {
    expect(() => guardAnswer('{"tool_name":"Bash","tool_input":{"command":"npm test"}}', undefined)).toThrow(/CCC_REVIEWER_POLICY is not set/);
    expect(() => guardAnswer('not json', JSON.stringify(npmProject))).toThrow();
    expect(() => guardAnswer('{}', JSON.stringify(npmProject))).toThrow(/no tool_name/);
  });
});
