/** A git project for a test: a new directory (and a store directory for baselines) each test, removed after it; git run in it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';

export interface TempGitProject {
  readonly dir: string;
  /** Where baselines keep their object stores. */
  readonly storesDir: string;
  /** `git <args>` in the project, as a user with a name; fails the test when git fails. */
  git: (...args: string[]) => string;
  /** Writes a file of the project, its folders made. */
  write: (file: string, text: string) => void;
}

export function tempGitProject(prefix: string): TempGitProject {
  let dir = '';
  let storesDir = '';
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-`));
    storesDir = fs.mkdtempSync(path.join(os.tmpdir(), `${prefix}-stores-`));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(storesDir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get storesDir() {
      return storesDir;
    },
    git: (...args) => {
      const run = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      return run.stdout;
    },
    write: (file, text) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    },
  };
}
