import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { guardAnswer } from '../../../src/checkers/reviewer/guard-hook.js';
import { parseAllowRule } from '../../../src/checkers/reviewer/allow-rule.js';
import { decideToolUse, reviewerPolicy, type ReviewerPolicy } from '../../../src/checkers/reviewer/reviewer-policy.js';
import { detectTests } from '../../../src/init/ecosystems.js';
import { memoryProjectFiles } from '../../../src/init/project-files.js';

const root = process.cwd();
const npmTests = detectTests(memoryProjectFiles({ 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }) }));
const npmProject = reviewerPolicy({ root, tests: npmTests, ruleCommands: ['npm run build && npm test', 'make lint'], allow: [] });
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
    for (const command of [
      'npm test',
      'npm run test',
      'npm t',
      '  npm   test ',
      'CI=true npm test',
      'npm test 2>&1 | tail -n 40',
      'npm test 2>/dev/null',
      'make lint',
      'npm run build && npm test',
      'npm run build && npm test 2>&1 | tail -30',
      'git status',
      'git diff HEAD~1 -- src',
      'git --no-pager log --oneline -5',
      'git show HEAD:package.json',
      'cat package.json | grep test',
      'ls -la src',
      'cd /tmp && git status',
      'npm test && git diff',
      'git status; npm test 2>&1 | tail -5',
      'grep -rn TODO src',
      'npm test # the suite',
    ]) {
      expect([command, bash(npmProject, command)]).toEqual([command, true]);
    }
  });

  it('refuses everything that could change the project, also chained onto an allowed command', () => {
    for (const command of [
      'touch X',
      'npm test && touch X',
      'npm test; touch X',
      'npm test || touch X',
      'npm test | tee out.log',
      'npm test > out.log',
      'npm test >> out.log',
      'npm test\ntouch X',
      'npm test &',
      'echo $(touch X)',
      'echo `touch X`',
      'cat <(touch X)',
      'npm test -- -u',
      'npm run build',
      'npm install',
      'rm -rf dist',
      'git diff --output=patch.txt',
      'git commit -am x',
      'git checkout .',
      'git stash',
      'PATH=/tmp npm test',
      'echo $HOME',
      'sed -i s/a/b/ f',
      'find . -delete',
      'npm test | sh',
      'make lint install',
      'ls && ',
      '',
    ]) {
      expect([command, bash(npmProject, command)]).toEqual([command, false]);
    }
  });

  it('says in the refusal what it may run instead', () => {
    const decision = decideToolUse(npmProject, 'Bash', { command: 'npm test && touch X' });
    expect(decision.reason).toContain('`touch X` is not allowed');
    expect(decision.reason).toContain('`npm run build && npm test`, `make lint`, `npm test`');
    expect(decision.reason).toContain('`npm test -- …`, `node --test …`');
    expect(decision.reason).toContain('read-only git (`git status`');
  });

  it('supervisor.reviewer.allow widens it with Claude Code rules: exact, prefix, a whole tool', () => {
    const policy = reviewerPolicy({ root, tests: npmTests, ruleCommands: [], allow: ['Bash(npm test:*)', 'Bash(make e2e)', 'Edit'] });
    expect(bash(policy, 'npm test -- --grep login')).toBe(true);
    expect(bash(policy, 'npm test -- -u && touch X')).toBe(false);
    expect(bash(policy, 'make e2e')).toBe(true);
    expect(bash(policy, 'make e2e clean')).toBe(false);
    expect(decideToolUse(policy, 'Edit', {}).allow).toBe(true);
    expect(decideToolUse(policy, 'Write', {}).allow).toBe(false);
    const anything = reviewerPolicy({ root, tests: [], ruleCommands: [], allow: ['Bash'] });
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

  /** A polyglot project: every runner family with arguments, and read-only exploration. */
  const polyglot = reviewerPolicy({
    root,
    tests: detectTests(
      memoryProjectFiles({
        'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }),
        'pytest.ini': '',
        'go.mod': '',
        'Cargo.toml': '',
        Makefile: 'test:\n',
        'deno.json': '{}',
        Gemfile: '',
        '.rspec': '',
      }),
    ),
    ruleCommands: [],
    allow: [],
  });
  const FOCUSED_RUNS = [
    'npm test -- src/cli -t "parses args"',
    'npx vitest run src/cli --reporter=verbose',
    'python3 -m pytest -q test/x.py::test_add -k "add and not slow"',
    'pytest -xvs --tb=short',
    'go test -run TestAdd -v ./...',
    'cargo test add -- --nocapture',
    'make -k test',
    'deno test --filter add',
    'bundle exec rspec spec/a_spec.rb:12 -e adds',
  ];
  const RUNNER_WRITERS = [
    '-u',
    '--update-snapshots',
    '--updateSnapshot',
    '--fix',
    '-o',
    '--coverage',
    '--cov',
    '-exec',
    '-c',
    '--config',
    '--watch',
    '-args',
    '--outputFile',
    '--junitxml',
    '--logfile',
    '-delete',
  ];
  /** Each head with the options that would make it write or run another program. */
  const WRITERS: Record<string, string[]> = {
    ...Object.fromEntries(
      [
        'npm test --',
        'npx vitest',
        'pytest',
        'python3 -m pytest',
        'go test',
        'cargo test',
        'cargo test --',
        'make',
        'make test',
        'deno test',
        'bundle exec rspec',
      ].map((h) => [h, RUNNER_WRITERS]),
    ),
    'find .': ['-delete', '-exec', '-execdir', '-ok', '-okdir', '-fprint', '-fprint0', '-fprintf', '-fls'],
    sed: ['-i', '--in-place', '-f', '--file', '-ni'],
    rg: ['--pre', '-z', '--search-zip', '-nz'],
    git: ['-c', '-C', '--exec-path', '-p', '--paginate', '--git-dir', '--work-tree'],
    'git grep': ['-O', '--open-files-in-pager', '--textconv', '-nO'],
    'git log': ['--ext-diff', '--textconv', '--output', '-o', '--show-signature'],
    'git branch': ['-d', '-D', '-m', '-M', '-c', '-f', '--edit-description', '-u', '--set-upstream-to'],
    sort: ['-o', '--output', '-T', '--compress-program', '-uo'],
    tree: ['-o', '-R'],
    file: ['-C', '--compile'],
  };
  const focused = fc.constantFrom(
    ...FOCUSED_RUNS,
    "find . -name '*.ts'",
    'sed -n 1,40p README.md',
    'git grep -n foo',
    'rg -n TODO src',
    'jq .name package.json',
  );

  it('never allows a write chained onto a focused run or an exploration, nor a writer added to its arguments (fuzzed)', () => {
    for (const command of ['npm test -- src/cli -t "parses args"', 'pytest -xvs --tb=short', 'make -k test', 'sed -n 1,40p README.md'])
      expect([command, bash(polyglot, command)]).toEqual([command, true]);
    const joiner = fc.constantFrom(' && ', '; ', ' || ', '\n', ' & ', ' | ', ';', ' 2>&1 | ');
    const write = fc.constantFrom(
      'touch X',
      'rm -f package.json',
      'git commit -m x',
      'npm install left-pad',
      'sh -c "touch X"',
      'tee X',
      'npx prettier --write .',
      'npx eslint --fix .',
      'make install',
    );
    fc.assert(fc.property(focused, joiner, write, (a, j, w) => !bash(polyglot, `${a}${j}${w}`)));
    fc.assert(
      fc.property(
        focused,
        write,
        (a, w) => !bash(polyglot, `${a} $(${w})`) && !bash(polyglot, `${a} > X`) && !bash(polyglot, `${a} >> X`) && !bash(polyglot, `${a} \`${w}\``),
      ),
    );
    const run = fc.constantFrom(...FOCUSED_RUNS);
    const writer = fc.constantFrom(...RUNNER_WRITERS, '--outputFile=x', '--junitxml=x', '-coverprofile=x', '--target-dir=x', '--import=x');
    fc.assert(fc.property(run, writer, (a, w) => !bash(polyglot, `${a} ${w}`) && !bash(polyglot, `${a} ${w} x`)));
  });

  it('judges random argument soup without throwing, and never lets a writing option through (fuzzed)', () => {
    const allWriters = [...new Set(Object.values(WRITERS).flat())];
    const word = fc.oneof(
      fc.string(),
      fc.constantFrom(
        ...allWriters,
        '--',
        '-k',
        '-t',
        '-x',
        '-v',
        '-q',
        '-n',
        '-e',
        '-run',
        '--test',
        '--filter',
        'run',
        'test',
        '.',
        './...',
        '..',
        '/etc',
        '~',
        'src',
        'x::y',
        '-xk',
        '-kx',
        '-vx',
        '1p',
        'w',
        's/a/b/w x',
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(WRITERS), 'uniq', 'jq', 'npm test'), fc.array(word, { maxLength: 8 }), (head, words) => {
        const plain = words.map((w) => w.replace(/'/g, ''));
        const decision = decideToolUse(polyglot, 'Bash', { command: [head, ...plain.map((w) => `'${w}'`)].join(' ') });
        if (typeof decision.allow !== 'boolean') return false;
        // A writing option of the command never passes, standalone or as a value (values may not start with `-`).
        return !decision.allow || !plain.some((w) => (WRITERS[head] ?? []).includes(w));
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws on any command text or tool input (fuzzed)', () => {
    fc.assert(fc.property(fc.string(), (command) => typeof decideToolUse(npmProject, 'Bash', { command }).allow === 'boolean'));
    fc.assert(fc.property(fc.string(), fc.anything(), (tool, input) => typeof decideToolUse(npmProject, tool, input).allow === 'boolean'));
    fc.assert(fc.property(fc.string(), fc.string(), (command, cwd) => typeof decideToolUse(polyglot, 'Bash', { command }, cwd).allow === 'boolean'));
  });
});

describe('the guard hook', () => {
  it('answers in the PreToolUse hook format', () => {
    const answer = (tool: string, input: unknown) =>
      JSON.parse(guardAnswer(JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input }), JSON.stringify(npmProject)));
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
