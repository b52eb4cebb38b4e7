import { describe, expect, it } from 'vitest';
import { GUARD_SCRIPT, inheritedArgs, reviewerLaunch } from '../../../src/checkers/reviewer/reviewer-launch.js';
import { reviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';

const policy = reviewerPolicy({
  root: process.cwd(),
  tests: [{ ecosystem: 'npm', command: 'npm test', marker: 'package.json', why: 'package.json has a test script', runner: 'node-test' }],
  ruleCommands: [],
  allow: [],
});

describe('how the reviewer is started', () => {
  it("keeps the agent's model, settings, MCP and tool-shaping options, and none of its write permissions", () => {
    expect(
      inheritedArgs([
        '--allowedTools',
        'Bash',
        'Edit',
        'Glob',
        '--model=opus',
        '--dangerously-skip-permissions',
        '--permission-mode',
        'acceptEdits',
        'fix the bug',
        '-p',
        '--resume',
        'x',
        '--mcp-config',
        'a.json',
        'b.json',
        '--disallowedTools',
        'WebFetch',
        '--strict-mcp-config',
        '--',
        '--permission-mode',
        'plan',
      ]),
    ).toEqual(['--allowedTools', 'Glob', '--model=opus', '--mcp-config', 'a.json', 'b.json', '--disallowedTools', 'WebFetch', '--strict-mcp-config']);
    expect(inheritedArgs(['--allowed-tools=Bash(npm test),Read', '--settings', '{"x":1}'])).toEqual(['--allowed-tools', 'Read', '--settings', '{"x":1}']);
    expect(inheritedArgs(['--allowedTools', 'Bash', 'Write'])).toEqual([]);
  });

  it('forks the agent session without saving the fork, with stream-json, no --json-schema, the guard hook, and the policy in the environment', () => {
    const launch = reviewerLaunch({ fork: 'sess-1', claudeArgs: ['--model', 'opus', '--allowedTools', 'Bash'], cwd: '/tmp', env: { HOME: '/h' }, policy });
    expect(launch.args.slice(0, 2)).toEqual(['--settings', expect.any(String)]);
    expect(launch.args.slice(2)).toEqual([
      '-p',
      '--fork-session',
      '--resume',
      'sess-1',
      '--no-session-persistence',
      '--verbose',
      '--output-format',
      'stream-json',
      '--include-hook-events',
      '--model',
      'opus',
    ]);
    expect(launch.args).not.toContain('--json-schema');
    const settings = JSON.parse(launch.args[1]!);
    expect(settings.hooks.PreToolUse[0].matcher).toBe('*');
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toBe(`${process.execPath} ${GUARD_SCRIPT}`);
    // The guard's probe: a SessionStart hook that writes this launch's nonce to stderr.
    expect(launch.guardNonce).toMatch(/^ccc-reviewer-guard-/);
    expect(settings.hooks.SessionStart[0].hooks[0].command).toBe(`echo ${launch.guardNonce} >&2`);
    expect(launch.env).toMatchObject({
      HOME: '/h',
      CCC_SUPERVISOR_HOOK: String(process.pid),
      PYTHONDONTWRITEBYTECODE: '1',
      PYTEST_ADDOPTS: '-p no:cacheprovider',
    });
    expect(reviewerLaunch({ fork: 's', claudeArgs: [], cwd: '/tmp', env: { PYTEST_ADDOPTS: '-q' }, policy }).env.PYTEST_ADDOPTS).toBe('-q -p no:cacheprovider');
    expect(JSON.parse(launch.env.CCC_REVIEWER_POLICY!)).toEqual(policy);
  });

  it("merges the guard into the user's own --settings and uses supervisor.reviewer.model", () => {
    const launch = reviewerLaunch({
      fork: 'sess-9',
      claudeArgs: ['--model', 'opus', '--settings', '{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}]},"env":{"A":"1"}}'],
      cwd: '/tmp',
      env: {},
      policy,
      model: 'haiku',
    });
    expect(launch.args[launch.args.indexOf('--resume') + 1]).toBe('sess-9');
    expect(launch.args.filter((a) => a === '--model')).toHaveLength(1);
    expect(launch.args[launch.args.indexOf('--model') + 1]).toBe('haiku');
    const settings = JSON.parse(launch.args[launch.args.indexOf('--settings') + 1]!);
    expect(settings.env).toEqual({ A: '1' });
    expect(settings.hooks.PreToolUse).toHaveLength(2);
  });
});
