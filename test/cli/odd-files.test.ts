/**
 * Files ccc reads that are not files: a FIFO, a socket, a device or a directory where SUPERVISOR.md
 * or a config file goes, at a checker plugin's path or a `--settings` file ccc merges into, is
 * named as what it is (exit 2) before anything opens it, and a
 * SUPERVISOR.md too large for claude's stdin is refused before any agent turn. Through the built CLI.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SUPERVISOR_PROMPT_MAX_BYTES } from '../../src/checkers/supervisor-prompt.js';
import { withSettingsArg } from '../../src/providers/settings-arg.js';
import { withLaunchSettings } from '../../src/stop/launch-settings.js';
import { ARGUMENT_LIMIT_BYTES, readUserFileSync } from '../../src/user-file.js';
import { cccBin, claudeBin, TEST_API_KEY } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

let t: TempHome;
const servers: net.Server[] = [];
beforeEach(() => {
  t = makeTempHome();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  t.cleanup();
});

// The real claude, pointed at a port where nothing listens: every case here ends before any turn.
const ccc = (args: string[]) =>
  runProcess(process.execPath, [cccBin, ...args], {
    cwd: t.project,
    env: { ...t.env, CCC_CLAUDE: claudeBin, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: TEST_API_KEY },
    timeoutMs: 60_000,
  });

function mkfifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

async function socketAt(file: string): Promise<void> {
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(file, resolve));
}

describe('what a path is, before it is opened', () => {
  it('names a FIFO, a socket, a device and a directory, and passes a regular file', async () => {
    const fifo = path.join(t.project, 'fifo');
    mkfifo(fifo);
    const socket = path.join(t.project, 'sock');
    await socketAt(socket);
    const problem = (file: string) => {
      const read = readUserFileSync(file);
      return read.ok ? 'ok' : read.problem.message;
    };
    expect(problem(fifo)).toBe(`${fifo} is a FIFO, not a file`);
    expect(problem(socket)).toBe(`${socket} is a socket, not a file`);
    expect(problem('/dev/null')).toBe('/dev/null is a character device, not a file');
    expect(problem(t.project)).toBe(`${t.project} is a directory, not a file`);
    expect(problem(t.write('work/project/plain.md', 'text'))).toBe('ok');
    const big = readUserFileSync(t.write('work/project/big.md', 'x'.repeat(11)), { maxBytes: 10 });
    expect(big.ok ? 'ok' : big.problem.kind).toBe('too-large');
  });
});

describe('SUPERVISOR.md that is not a file', () => {
  it('a FIFO: ccc --supervisor, ccc config and ccc doctor name it instead of hanging', async () => {
    const file = path.join(t.project, 'SUPERVISOR.md');
    mkfifo(file);
    const run = await ccc(['--supervisor', '-p', 'hello']);
    expect(run.stderr).toContain(`${file} is a FIFO, not a file`);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const config = await ccc(['config']);
    expect(config.stdout + config.stderr).toContain(`${file} is a FIFO, not a file`);
    const doctor = await ccc(['doctor']);
    expect(doctor.stdout + doctor.stderr).toContain(`${file} is a FIFO, not a file`);
  });

  it('a directory: the run and ccc init say the same thing, neither "run ccc init" nor "exists"', async () => {
    const file = path.join(t.project, 'SUPERVISOR.md');
    fs.mkdirSync(file);
    const run = await ccc(['--supervisor', '-p', 'hello']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file} is a directory, not a file`);
    expect(run.stderr).not.toContain('ccc init');
    const init = await ccc(['init']);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(`${file} is a directory, not a file`);
    expect(init.stderr).not.toContain('exists');
    const forced = await ccc(['init', '--force']);
    expect(forced.code).toBe(2);
    expect(fs.statSync(file).isDirectory()).toBe(true);
  });

  it('larger than claude takes on stdin: refused before any agent turn, naming the limit', async () => {
    const file = t.write('work/project/SUPERVISOR.md', 'x'.repeat(SUPERVISOR_PROMPT_MAX_BYTES + 1));
    const run = await ccc(['--supervisor', '-p', 'hello']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file} is ${SUPERVISOR_PROMPT_MAX_BYTES + 1} bytes`);
    expect(run.stderr).toContain(`at most ${10 * 1024 * 1024} bytes`);
    expect(run.stderr).not.toContain('model');
  });
});

describe('config files that are not files', () => {
  it('a FIFO as ccc.config.ts and as the global ccc.json: exit 2 naming it', async () => {
    t.write('work/project/SUPERVISOR.md', '# rules');
    const project = path.join(t.project, 'ccc.config.ts');
    mkfifo(project);
    const run = await ccc(['config']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${project} is a FIFO, not a file`);
    fs.rmSync(project);
    const globalFile = path.join(t.home, '.claude', 'ccc.json');
    fs.mkdirSync(path.dirname(globalFile), { recursive: true });
    mkfifo(globalFile);
    const global = await ccc(['config']);
    expect(global.code).toBe(2);
    expect(global.stderr).toContain(`${globalFile} is a FIFO, not a file`);
  });
});

/**
 * One run per odd path; a run that hangs is killed after 30 s and reported as that path hanging,
 * never as the whole file timing out.
 */
async function refusedFast(what: string, args: string[]) {
  const run = await runProcess(process.execPath, [cccBin, ...args], {
    cwd: t.project,
    env: { ...t.env, CCC_CLAUDE: claudeBin, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: TEST_API_KEY },
    timeoutMs: 30_000,
  });
  expect(run.signal, `${what}: ccc hung and was killed`).toBeNull();
  expect(run.code, `${what}: exit code (stderr: ${run.stderr})`).toBe(2);
  expect(run.stderr, what).not.toMatch(/\n\s+at /);
  return run;
}

describe('checker plugins that are not files', () => {
  const oddPlugins: Array<[string, () => string | Promise<string>, string]> = [
    ['a FIFO', () => (mkfifo(path.join(t.project, 'gate.mjs')), './gate.mjs'), 'a FIFO'],
    ['a directory', () => (fs.mkdirSync(path.join(t.project, 'gate.mjs')), './gate.mjs'), 'a directory'],
    ['a socket', async () => (await socketAt(path.join(t.project, 'gate.mjs')), './gate.mjs'), 'a socket'],
    ['a device', () => '/dev/zero', 'a character device'],
  ];
  for (const [name, make, what] of oddPlugins) {
    it(`${name} as a plugin path: exit 2 naming the path and what it is, before any turn`, async () => {
      t.write('work/project/SUPERVISOR.md', '# rules');
      const specifier = await make();
      t.write('work/project/.cccrc.json', JSON.stringify({ supervisor: { checkers: [specifier] } }));
      const run = await refusedFast(`plugin ${name}`, ['--supervisor', '-p', 'hello']);
      expect(run.stderr).toContain(`Checker plugin "${specifier}" is ${what}, not a module file`);
    });
  }
});

describe("a user's --settings file that ccc merges its settings into", () => {
  // Where ccc reads the file itself: the interactive launch (its Stop hook merged in) and a
  // provider's launch (the provider's settings merged in). A FIFO here would block ccc in the read.
  const merges: Array<[string, (file: string) => string[]]> = [
    ['the interactive launch', (file) => withLaunchSettings(['--settings', file], { hooks: {} }, t.project)],
    ["a provider's launch", (file) => withSettingsArg(['--settings', file], { env: { X: '1' } }, t.project)],
  ];
  const oddSettings: Array<[string, () => string, string]> = [
    ['a FIFO', () => (mkfifo(path.join(t.project, 'settings.json')), path.join(t.project, 'settings.json')), 'is a FIFO, not a file'],
    ['a directory', () => t.project, 'is a directory, not a file'],
    ['a device', () => '/dev/zero', 'is a character device, not a file'],
    [
      'too large for one argument',
      () => t.write('work/project/settings.json', `{"x":"${'y'.repeat(ARGUMENT_LIMIT_BYTES)}"}`),
      `more than the ${ARGUMENT_LIMIT_BYTES} bytes allowed (the settings reach claude as one argument`,
    ],
  ];
  for (const [where, merge] of merges) {
    for (const [name, make, says] of oddSettings) {
      it(`${name} at ${where}: a USAGE error (exit 2) naming it, without opening it`, () => {
        const file = make();
        let thrown: unknown;
        try {
          merge(file);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toMatchObject({ code: 'USAGE', exitCode: 2, message: expect.stringContaining(`--settings ${file} `) });
        expect((thrown as Error).message).toContain(says);
      });
    }
  }
});

describe('a --settings file that headless passes to claude as it is', () => {
  // Headless hands the user's `--settings <file>` to `claude -p` unread; claude opening a FIFO
  // would block the run before its first turn, so ccc looks at the path first.
  const odd: Array<[string, () => string | Promise<string>, string]> = [
    ['a FIFO', () => (mkfifo(path.join(t.project, 'settings.json')), path.join(t.project, 'settings.json')), 'a FIFO'],
    ['a directory', () => t.project, 'a directory'],
    ['a socket', async () => (await socketAt(path.join(t.project, 'settings.json')), path.join(t.project, 'settings.json')), 'a socket'],
    ['a device', () => '/dev/zero', 'a character device'],
  ];
  for (const [name, make, what] of odd) {
    it(`${name}: exit 2 naming the path and what it is, before claude starts`, async () => {
      t.write('work/project/SUPERVISOR.md', '# rules');
      const file = await make();
      const run = await refusedFast(`--settings ${name}`, ['--supervisor', '-p', 'hello', '--settings', file]);
      expect(run.stderr).toContain(`--settings ${file} is ${what}, not a file`);
      const inline = await refusedFast(`--settings= ${name}`, ['--supervisor', '-p', 'hello', `--settings=${file}`]);
      expect(inline.stderr).toContain(`--settings ${file} is ${what}, not a file`);
    });
  }

  it('a relative path is looked at from the project', async () => {
    t.write('work/project/SUPERVISOR.md', '# rules');
    mkfifo(path.join(t.project, 'odd.json'));
    const run = await refusedFast('relative FIFO', ['--supervisor', '-p', 'hello', '--settings', 'odd.json']);
    expect(run.stderr).toContain(`--settings ${path.join(t.project, 'odd.json')} is a FIFO, not a file`);
  });
});

describe('files ccc report reads', () => {
  it('a FIFO among the event logs: exit 2 naming it instead of hanging', async () => {
    const fifo = path.join(t.project, 'events.jsonl');
    mkfifo(fifo);
    const run = await refusedFast('report FIFO', ['report', fifo]);
    expect(run.stderr).toContain(`${fifo} is a FIFO, not a file`);
  });
});

describe('HOME set but empty', () => {
  // os.homedir() answers "" then, so ~/.claude would be .claude in the project: ccc refuses instead.
  it('a supervised run is exit 2 saying so, and nothing of ccc lands in the project', async () => {
    t.write('work/project/SUPERVISOR.md', '# rules');
    const run = await runProcess(process.execPath, [cccBin, '--supervisor', '-p', 'hello'], {
      cwd: t.project,
      env: { ...t.env, HOME: '', CCC_CLAUDE: claudeBin, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', ANTHROPIC_API_KEY: TEST_API_KEY },
      timeoutMs: 30_000,
    });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(`HOME is empty; set HOME to your home directory (\`export HOME=${os.userInfo().homedir}\`) and run ccc again`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readdirSync(t.project)).toEqual(['SUPERVISOR.md']);
    // ccc --version still answers (without caching claude's version anywhere).
    const version = await runProcess(process.execPath, [cccBin, '--version'], { cwd: t.project, env: { ...t.env, HOME: '', CCC_CLAUDE: claudeBin } });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toMatch(/^ccc .*\nclaude \d/);
    expect(fs.readdirSync(t.project)).toEqual(['SUPERVISOR.md']);
  });
});
