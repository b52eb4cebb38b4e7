/** The verdict's evidence: read from the reviewer's own frames, shown as "verified by" / "unverified", required when configured. */
import { describe, expect, it } from 'vitest';
import { passingCommands, validEvidence } from '../../src/checkers/evidence.js';
import { verificationDetails } from '../../src/checkers/verification.js';
import { refuseOverFailingRun } from '../../src/checkers/own-evidence.js';
import { requireEvidence } from '../../src/checkers/require-evidence.js';
import { evidenceCollector } from '../../src/checkers/reviewer/evidence-frames.js';
import { reviewerPolicy } from '../../src/checkers/reviewer/reviewer-policy.js';
import { defaultConfig } from '../../src/config/defaults.js';
import { detectTests } from '../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../src/init/project-files.js';
import type { Frame } from '../../src/frames/frame.js';
import { createRecordingLogger as recordingLogger } from '../../src/log/memory-logger.js';

const files = memoryProjectFiles({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }), Makefile: 'lint:\n\teslint .\n' });
const policy = reviewerPolicy({ root: process.cwd(), tests: detectTests(files), ruleCommands: ['make lint'], allow: [] });
const project = { policy, files };
const use = (id: string, command: string) =>
  ({
    type: 'assistant',
    message: {
      content: [
        { type: 'text', text: 'checking' },
        { type: 'tool_use', id, name: 'Bash', input: { command } },
      ],
    },
  }) as unknown as Frame;
// The shapes claude writes (pinned in test/claude/bash-tool-result.test.ts).
const result = (id: string, content: string, isError: boolean) =>
  ({ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } }) as unknown as Frame;

describe('evidence from the reviewer stream', () => {
  it('records each verification command the reviewer ran with its exit code (none when a pipe masks it); reads, refusals and other tools are not evidence', () => {
    const collector = evidenceCollector(project);
    const frames = [
      use('a', 'npm test'),
      result('a', 'Exit code 1\nnot ok 1 - adds', true),
      use('b', 'git diff'),
      result('b', 'diff --git', false),
      use('c', 'npm test -- test/answer.test.js 2>&1 | tail -n 20'),
      result('c', 'ok 1 - adds', false),
      use('c2', 'npm test -- test/answer.test.js && git diff'),
      result('c2', '# tests 1\n# pass 1\n# fail 0\ndiff --git', false),
      use('d', 'npm test && touch X'),
      result('d', '`touch X` is not allowed: it is not a verification command. As the reviewer …', true),
      use('e', 'make lint'),
      result('e', 'Command timed out after 2m', true),
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'f', name: 'Read', input: { file_path: 'x' } }] } } as unknown as Frame,
      result('f', 'text', false),
      result('zz', 'a result for no known call', false),
      { type: 'result', result: 'done' } as unknown as Frame,
    ];
    for (const frame of frames) collector.onFrame(frame);
    expect(collector.evidence()).toEqual([
      { command: 'npm test', exit_code: 1, failures: ['adds'] },
      { command: 'npm test -- test/answer.test.js 2>&1 | tail -n 20', exit_code: null },
      { command: 'npm test -- test/answer.test.js && git diff', exit_code: 0, scope: 'focused', focus: 'a path (`test/answer.test.js`)', tests: 1 },
      { command: 'make lint', exit_code: null },
    ]);
  });

  it('a command that exited 0 verifies only when it ran tests that passed: its count, or why not', () => {
    const collector = evidenceCollector(project);
    const background = {
      type: 'assistant',
      message: { content: [{ type: 'tool_use', id: 'g', name: 'Bash', input: { command: 'npm test', run_in_background: true } }] },
    };
    const frames = [
      use('a', 'npm test'),
      result('a', '> calc test\n> node --test\n\n# tests 12\n# pass 12\n# fail 0\n', false),
      use('b', 'node --test --test-name-pattern=nomatch'),
      result('b', 'ok 1 - adds # SKIP\n# tests 1\n# pass 0\n# fail 0\n# skipped 1\n', false),
      use('c', 'npm test -- --test-reporter dot'),
      result('c', '..\n', false),
      use('d', 'make lint'),
      result('d', 'lint clean', false),
      use('e', 'npm test'),
      result('e', '[still running] The command did not finish within its 2s timeout. It was NOT killed', false),
      background as unknown as Frame,
      result('g', 'Command running in background with ID: b1', false),
    ];
    for (const frame of frames) collector.onFrame(frame);
    expect(collector.evidence()).toEqual([
      { command: 'npm test', exit_code: 0, scope: 'whole', tests: 12 },
      { command: 'node --test --test-name-pattern=nomatch', exit_code: 0, not_counted: 'no test passed (1 skipped)', not_passed: { skipped: 1 } },
      { command: 'npm test -- --test-reporter dot', exit_code: 0, not_counted: 'its output shows no test summary that ccc reads' },
      { command: 'make lint', exit_code: 0, not_counted: 'it runs `eslint .`: no test runner ccc knows' },
      { command: 'npm test', exit_code: 0, not_counted: 'it had not finished (claude moved it to the background)' },
      { command: 'npm test', exit_code: 0, not_counted: 'it ran in the background' },
    ]);
    expect(passingCommands(collector.evidence())).toEqual(['npm test']);
    expect(verificationDetails(true, collector.evidence())).toBe('verified by: npm test (12 tests)');
    expect(verificationDetails(true, [{ command: 'pytest --co -q', exit_code: 0, not_counted: 'it only collects the tests (`--co`)' }])).toBe(
      'unverified: pytest --co -q: it only collects the tests (`--co`)',
    );
  });

  it("keeps a checker's evidence only when it is a list of { command, exit_code }", () => {
    expect(validEvidence([{ command: 'npm test', exit_code: 0, extra: 1 }])).toEqual([{ command: 'npm test', exit_code: 0 }]);
    expect(validEvidence([{ command: 'npm test', exit_code: 0, tests: 3, not_counted: 'x' }])).toEqual([
      { command: 'npm test', exit_code: 0, tests: 3, not_counted: 'x' },
    ]);
    const full = {
      command: 'pytest',
      exit_code: 1,
      tests: 3,
      scope: 'focused',
      focus: 'a filter (`-k`)',
      not_passed: { skipped: 1, deselected: 2 },
      changed_tests: ['tests/test_x.py'],
      failures: ['tests/test_x.py::test_y: assert 1 == 2'],
    };
    expect(validEvidence([full])).toEqual([full]);
    // Newer fields that are malformed are dropped, the record kept: an unknown scope reads as focused, never whole.
    expect(
      validEvidence([
        { command: 'x', exit_code: 0, scope: 'all', focus: 3, not_passed: { skipped: -1, todo: 2, other: 4 }, changed_tests: 'a', failures: [1] },
      ]),
    ).toEqual([{ command: 'x', exit_code: 0, not_passed: { todo: 2 } }]);
    for (const bad of [
      undefined,
      'npm test',
      [{ command: 1, exit_code: 0 }],
      [{ command: 'x', exit_code: 1.5 }],
      [null],
      [{ command: 'x', exit_code: 0, tests: -1 }],
      [{ command: 'x', exit_code: 0, not_counted: 1 }],
    ])
      expect(validEvidence(bad)).toBeUndefined();
  });
});

describe('supervisor.reviewer.require_evidence', () => {
  const config = defaultConfig();
  config.supervisor.reviewer.require_evidence = true;
  config.supervisor.checkers = [{ use: 'rule', commands: ['make lint'] }, 'claude'];
  const cwd = process.cwd(); // this repository: its package.json has a test script

  it('turns a complete without a passing verification command into feedback that says how to verify', () => {
    const logger = recordingLogger();
    const verdict = requireEvidence(
      config,
      'claude',
      cwd,
      { completed: true, feedback: 'Looks right.', evidence: [{ command: 'npm test', exit_code: 1 }] },
      logger,
    );
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toContain('The work could not be verified');
    expect(verdict.feedback).toContain('it ran `npm test` (exit 1)');
    expect(verdict.feedback).toContain('Run `npm test` or `make lint`, make it pass, and show its output.');
    expect(verdict.feedback).toContain('The reviewer said: Looks right.');
    expect(logger.lines.some((r) => r.level === 'warn' && r.message.includes('require_evidence'))).toBe(true);
  });

  it('a run that listed or selected no test is no evidence, and the feedback says why', () => {
    const collected = { command: 'python3 -m pytest --co -q', exit_code: 0, not_counted: 'it only collects the tests (`--co`)' };
    const verdict = requireEvidence(
      config,
      'claude',
      cwd,
      { completed: true, feedback: 'ok', evidence: [collected, { command: 'npm test', exit_code: 0, tests: 0 }] },
      recordingLogger(),
    );
    expect(verdict.completed).toBe(false);
    expect(verdict.feedback).toContain('it ran `python3 -m pytest --co -q` (exit 0, but it only collects the tests (`--co`))');
  });

  it('leaves a verified complete, a not-complete, another checker and the default alone', () => {
    const verified = { completed: true, feedback: 'ok', evidence: [{ command: 'npm test', exit_code: 0 }] };
    expect(requireEvidence(config, 'claude', cwd, verified, recordingLogger())).toBe(verified);
    const notDone = { completed: false, feedback: 'no', evidence: [] };
    expect(requireEvidence(config, 'claude', cwd, notDone, recordingLogger())).toBe(notDone);
    const plugin = { completed: true, feedback: 'ok' };
    expect(requireEvidence(config, 'my-plugin', cwd, plugin, recordingLogger())).toBe(plugin);
    const unverified = { completed: true, feedback: 'ok', evidence: [] };
    expect(requireEvidence(defaultConfig(), 'claude', cwd, unverified, recordingLogger())).toBe(unverified);
  });

  it('says so when the project has no test command ccc can find', () => {
    const bare = defaultConfig();
    bare.supervisor.reviewer.require_evidence = true;
    const verdict = requireEvidence(bare, 'claude', '/', { completed: true, feedback: '', evidence: [] }, recordingLogger());
    expect(verdict.feedback).toContain('This project has no test command ccc can find');
  });
});

describe("require_evidence: 'whole-suite'", () => {
  const config = defaultConfig();
  config.supervisor.reviewer.require_evidence = 'whole-suite';
  const cwd = process.cwd();
  const whole = { command: 'npm test', exit_code: 0, scope: 'whole' as const, tests: 9 };
  const focused = { command: 'npm test -- -t add', exit_code: 0, scope: 'focused' as const, focus: 'a name filter (`-t`)', tests: 2 };

  it('accepts only the whole suite run green on tests the agent did not weaken; `true` accepts any passing run', () => {
    const verified = { completed: true, feedback: 'ok', evidence: [focused, whole] };
    expect(requireEvidence(config, 'claude', cwd, verified, recordingLogger())).toBe(verified);
    const partial = { completed: true, feedback: 'ok', evidence: [focused] };
    const refused = requireEvidence(config, 'claude', cwd, partial, recordingLogger());
    expect(refused.completed).toBe(false);
    expect(refused.feedback).toContain('only part of the test suite ran green (npm test -- -t add (2 tests; a name filter (`-t`)))');
    expect(refused.feedback).toContain('Run `npm test` whole, without a filter, make it pass, and show its output.');
    const weakened = { completed: true, feedback: 'ok', evidence: [{ ...whole, changed_tests: ['test/add.test.js'] }] };
    const refusedWeakened = requireEvidence(config, 'claude', cwd, weakened, recordingLogger());
    expect(refusedWeakened.completed).toBe(false);
    expect(refusedWeakened.feedback).toContain('were weakened since the task began, in test/add.test.js');
    const some = defaultConfig();
    some.supervisor.reviewer.require_evidence = true;
    expect(requireEvidence(some, 'claude', cwd, partial, recordingLogger())).toBe(partial);
    expect(requireEvidence(some, 'claude', cwd, weakened, recordingLogger())).toBe(weakened);
  });
});

describe('a complete over its own failing run', () => {
  const failing = { command: 'python3 -m pytest -q', exit_code: 1, failed: 1, failures: ['tests/test_x.py::test_garbage_rejected: assert 2 == 3'] };

  it('is not accepted: the agent gets the command, its exit code and the failing tests, whatever require_evidence says', () => {
    const logger = recordingLogger();
    const verdict = refuseOverFailingRun('claude', { completed: true, feedback: 'Looks done.', evidence: [failing], review: 'forked' }, logger);
    expect(verdict).toEqual({
      completed: false,
      feedback: [
        'ccc did not accept the reviewer\'s "complete": its own run of `python3 -m pytest -q` (exit 1) failed and no later run passed.',
        'Failing tests:',
        '- tests/test_x.py::test_garbage_rejected: assert 2 == 3',
        'Make it pass (fix the code, not the tests), run `python3 -m pytest -q` again and show that it passes.',
        'The reviewer said: Looks done.',
      ].join('\n'),
      evidence: [failing],
      review: 'forked',
    });
    expect(logger.lines.some((r) => r.level === 'warn' && r.message.includes('over its own failing run'))).toBe(true);
  });

  it('is accepted once a later run answered the failure; a run of no test, a run without an exit code and a not-complete are left alone', () => {
    const answered = {
      completed: true,
      feedback: 'ok',
      evidence: [failing, { command: 'python3  -m pytest -q', exit_code: 0, scope: 'focused' as const, tests: 3 }],
    };
    expect(refuseOverFailingRun('claude', answered, recordingLogger())).toBe(answered);
    const byWhole = {
      completed: true,
      feedback: 'ok',
      evidence: [
        { ...failing, command: 'pytest tests/a.py' },
        { command: 'pytest', exit_code: 0, scope: 'whole' as const },
      ],
    };
    expect(refuseOverFailingRun('claude', byWhole, recordingLogger())).toBe(byWhole);
    const notByFocus = {
      completed: true,
      feedback: 'ok',
      evidence: [failing, { command: "pytest -k 'not garbage'", exit_code: 0, scope: 'focused' as const, tests: 3 }],
    };
    expect(refuseOverFailingRun('claude', notByFocus, recordingLogger()).completed).toBe(false);
    const none = {
      completed: true,
      feedback: 'ok',
      evidence: [
        { command: 'pytest -k x', exit_code: 5, not_counted: 'it ran no test' },
        { command: 'npm test | tail', exit_code: null },
      ],
    };
    expect(refuseOverFailingRun('claude', none, recordingLogger())).toBe(none);
    const notDone = { completed: false, feedback: 'no', evidence: [failing] };
    expect(refuseOverFailingRun('claude', notDone, recordingLogger())).toBe(notDone);
  });
});
