/**
 * The tests the agent weakened since the task began, on real git and a real directory: the
 * findings, the diff the reviewer is shown, the user's repository left as it was; without a
 * baseline against the checked-out commit; outside git, the files of the suite that changed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { takeBaseline } from '../../../src/checkers/reviewer/task-baseline.js';
import { changedTests } from '../../../src/checkers/reviewer/test-changes.js';
import { tempGitProject } from '../../support/temp-git.js';

const repo = tempGitProject('ccc-changes-test');
const { git, write } = repo;

const TESTS = 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_garbage_rejected():\n    assert add(1, 1) == 2\n';

function project(): void {
  write('calc.py', 'def add(a, b):\n    return a + b\n');
  write('tests/test_calc.py', TESTS);
  write('pytest.ini', '[pytest]\npythonpath = .\n');
  write('package.json', JSON.stringify({ name: 'x', scripts: { test: 'pytest' } }, null, 2));
}

describe('the tests the agent weakened (git)', () => {
  beforeEach(() => {
    git('init', '-q');
    project();
    git('add', '.');
    git('commit', '-qm', 'start');
  });

  it('since the baseline: committed or not, each weakened file with what weakened it and its diff; new tests and code are left alone', async () => {
    const baseline = await takeBaseline(repo.dir, { storesDir: repo.storesDir });
    write('tests/test_calc.py', TESTS.replace('    assert add(1, 1) == 2\n', '    assert True\n').replace('def test_add', '@pytest.mark.skip\ndef test_add'));
    git('commit', '-qam', 'weaken');
    write('conftest.py', 'import pytest\n');
    write('pytest.ini', '[pytest]\npythonpath = .\naddopts = -k "not garbage"\n');
    write('tests/test_new.py', 'def test_new():\n    assert 1 + 1 == 2\n');
    write('calc.py', 'def add(a, b):\n    return b + a\n');
    fs.renameSync(path.join(repo.dir, 'tests', 'test_new.py'), path.join(repo.dir, 'tests', 'test_more.py'));
    const status = git('status', '--porcelain');

    const changed = await changedTests(repo.dir, { baseline });
    expect(changed?.since).toBe(`the task's start (${baseline!.at})`);
    expect(changed?.weakened).toEqual([
      { file: 'conftest.py', findings: ['conftest.py added: it can skip, xfail or rewrite every test'] },
      { file: 'pytest.ini', findings: ['the pytest configuration changed (`addopts = -k "not garbage"`)'] },
      {
        file: 'tests/test_calc.py',
        findings: ['an assertion made trivial: `assert True`', 'a test skipped, expected to fail or singled out: `@pytest.mark.skip`'],
      },
    ]);
    expect(changed!.diff).toContain('+    assert True');
    expect(changed!.diff).toContain('+addopts = -k "not garbage"');
    expect(changed!.diff).not.toContain('a/calc.py');
    expect(git('status', '--porcelain')).toBe(status);
  });

  it('without a baseline, against the checked-out commit; nothing weakened is an empty list; a test file moved is not removed', async () => {
    expect(await changedTests(repo.dir, {})).toEqual({ weakened: [], diff: '', since: expect.stringContaining('the checked-out commit') });
    git('mv', 'tests/test_calc.py', 'tests/test_calculator.py');
    expect((await changedTests(repo.dir, {}))?.weakened).toEqual([]);
    git('mv', 'tests/test_calculator.py', 'tests/test_calc.py');
    fs.rmSync(path.join(repo.dir, 'tests', 'test_calc.py'));
    expect((await changedTests(repo.dir, {}))?.weakened).toEqual([
      { file: 'tests/test_calc.py', findings: ['removed with its tests: `test_add`, `test_garbage_rejected`'] },
    ]);
  });
});

describe('the tests the agent weakened (outside git)', () => {
  it('names the files of the suite that changed or went, and configuration added', async () => {
    project();
    const baseline = await takeBaseline(repo.dir, { storesDir: repo.storesDir });
    expect(baseline?.kind).toBe('files');
    const later = new Date(Date.now() + 5000);
    write('tests/test_calc.py', TESTS.replace('== 2', '== add(1, 1)'));
    fs.utimesSync(path.join(repo.dir, 'tests', 'test_calc.py'), later, later);
    write('conftest.py', '');
    write('tests/test_new.py', 'def test_new():\n    assert True\n');
    expect((await changedTests(repo.dir, { baseline }))?.weakened).toEqual([
      { file: 'tests/test_calc.py', findings: ['a file of the test suite changed (not a git work tree: what changed in it cannot be read)'] },
      { file: 'conftest.py', findings: ['conftest.py added: it configures how the tests run'] },
    ]);
  });
});
