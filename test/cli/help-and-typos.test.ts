/**
 * The command line behaves like a well-made Node CLI: help that shows the supervised modes, ccc's
 * own version, "did you mean" for typos (exit 2, before claude starts), `ccc help <cmd>` for every
 * command. Runs the built CLI; "claude" is a fake that records that it started, so a test can
 * prove claude was never started after seeing that it does start when it should. It answers
 * `--version` as a supported claude: ccc asks that of every claude before a run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supervisorOptionNames, takesSupervisorValue } from '../../src/cli/supervisor-args.js';
import { SUPERVISOR_OPTION_HELP } from '../../src/cli/supervisor-help.js';
import { rejectOptionTypos } from '../../src/cli/option-typos.js';
import { nearMiss } from '../../src/config/near-miss.js';
import { NEWEST_TESTED_CLAUDE } from '../../src/claude/claude-support.js';
import { cccBin, claudeBin } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

const version = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

let home: TempHome;
let started: string;
beforeEach(() => {
  home = makeTempHome();
  started = path.join(home.root, 'claude-started');
  const fake = home.write(
    'bin/fake-claude',
    `#!/bin/sh\n[ "$1" = --version ] && { echo '${NEWEST_TESTED_CLAUDE} (Claude Code)'; exit 0; }\necho "$@" > '${started}'\necho "fake claude: $*"\n`,
  );
  fs.chmodSync(fake, 0o755);
});
afterEach(() => home.cleanup());

const ccc = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runProcess(process.execPath, [cccBin, ...args], { cwd: home.project, env: { ...home.env, CCC_CLAUDE: path.join(home.root, 'bin/fake-claude'), ...env } });

describe('ccc --help and ccc --supervisor --help', () => {
  it('ccc --help shows the commands, the supervised modes with every option, and the exit codes', async () => {
    const run = await ccc(['--help']);
    expect(run.code).toBe(0);
    for (const name of [...supervisorOptionNames, 'config', 'observe', 'supervisor-hook', 'kanban']) expect(run.stdout).toContain(name);
    expect(run.stdout).toContain('ccc [provider] --supervisor -p "<task>" [options]');
    expect(run.stdout).toMatch(/^ {2}3 +a limit ended the loop without completion/m);
    expect(run.stdout).toMatch(/^ {2}4 +a checker failed/m);
    expect(fs.existsSync(started)).toBe(false);
  });

  it("ccc --supervisor --help (and -h) is ccc's supervisor help, exit 0; claude's own help stays reachable as ccc -- --help", async () => {
    for (const flag of ['--help', '-h']) {
      const run = await ccc(['--supervisor', flag]);
      expect(run.code, flag).toBe(0);
      expect(run.stdout).toContain('Options of the supervised modes:');
      expect(run.stdout).toContain('--max-iterations <n>');
      expect(run.stdout).toContain(
        "The default checker, the reviewer, is a forked Claude session that sees the whole conversation.\nIt may run the project's tests and read-only commands, never change the project (ccc config shows\nwhat it may run), and costs a cached read of the conversation. ccc init writes a starter setup.",
      );
      expect(fs.existsSync(started)).toBe(false);
    }
    const claudeHelp = await ccc(['--', '--help']);
    expect(claudeHelp.stdout).toContain('fake claude: --help');
  });

  it('the help table lists exactly the options the supervised parser knows', () => {
    const shown = SUPERVISOR_OPTION_HELP.flatMap((o) => o.names);
    expect(new Set(shown)).toEqual(new Set([...supervisorOptionNames, '-h', '--help']));
  });
});

describe('ccc --version', () => {
  it("prints ccc's version and the real claude's", async () => {
    const run = await ccc(['--version'], { CCC_CLAUDE: claudeBin });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^ccc ${version.replaceAll('.', '\\.')}\\nclaude \\d+\\.\\d+\\.\\d+ \\(Claude Code\\)\\n$`));
  });

  it("without claude anywhere: still exit 0 with ccc's version, and says claude is not found", async () => {
    const run = await ccc(['-v'], { CCC_CLAUDE: '', PATH: '/nonexistent' });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`ccc ${version}\nclaude: not found ("claude"; install Claude Code or set CCC_CLAUDE)\n`);
  });
});

describe('typos: did you mean, exit 2, claude never started', () => {
  it('a plain launch does start claude (the positive control for the cases below)', async () => {
    const run = await ccc(['--', 'hello']);
    expect(run.code).toBe(0);
    expect(fs.readFileSync(started, 'utf8')).toContain('hello');
  });

  it.each([
    [['confg'], 'Unknown command or provider "confg". Did you mean `ccc config`?'],
    [['kanbna', 'board.yaml'], 'Did you mean `ccc kanban`?'],
    [['--supervisr'], 'Unknown option --supervisr. Did you mean --supervisor?'],
    [['--supervisor', '--max-iteration', '3'], 'Unknown option --max-iteration. Did you mean --max-iterations?'],
    [['--supervisor', '-p', 'task', '--chekcer=rule'], 'Unknown option --chekcer. Did you mean --checker?'],
    [['--supervisor', '--log-levl', 'debug'], 'Did you mean --log-level?'],
    // An option of the supervised modes without --supervisor: claude would only say "unknown option".
    [['--max-iterations', '3'], '--max-iterations is an option of supervised runs. Did you mean `ccc --supervisor --max-iterations 3`?'],
    [['--checker', 'rule', '-p', 'fix it'], "Did you mean `ccc --supervisor --checker rule -p 'fix it'`?"],
    [['--json', '--model', 'opus'], 'Did you mean `ccc --supervisor --json --model opus`?'],
    [['--observe'], 'Did you mean `ccc --supervisor --observe`?'],
    [['--timeout=30'], '--timeout is an option of supervised runs.'],
  ])('ccc %j', async (args, message) => {
    const run = await ccc(args);
    expect(run.stderr).toContain(message);
    expect(run.code).toBe(2);
    expect(fs.existsSync(started)).toBe(false);
  });

  it('a checker name: from --checker and from a config file, said with where it came from', async () => {
    const flag = await ccc(['--supervisor', '--checker', 'claud', '-p', 'fix it']);
    expect(flag.stderr).toContain('Unknown checker "claud" in supervisor.checkers (from command-line flag). Did you mean "claude"?');
    expect(flag.code).toBe(2);
    const file = path.join(home.project, '.cccrc.json');
    fs.writeFileSync(file, JSON.stringify({ supervisor: { checkers: [{ use: 'rul', commands: ['true'] }] } }));
    const config = await ccc(['--supervisor', '-p', 'fix it']);
    expect(config.stderr).toContain(`Unknown checker "rul" in supervisor.checkers (from ${file}). Did you mean "rule"?`);
    expect(config.code).toBe(2);
    expect(fs.existsSync(started)).toBe(false);
  });

  it("the value of -p is the task, not a typo; claude's own options and anything after -- pass", () => {
    const check = (words: string[]) => () => rejectOptionTypos(words, supervisorOptionNames, takesSupervisorValue);
    expect(check(['--supervisor', '-p', 'fix --max-iteration handling'])).not.toThrow();
    expect(check(['--supervisor', '--print=--max-iteration'])).not.toThrow();
    // -p is a flag, as claude's is (the task may come on stdin): an option after it is an option.
    expect(check(['--supervisor', '-p', '--max-iteration'])).toThrow(/Did you mean --max-iterations\?/);
    expect(check(['--supervisor', '--model', 'opus', '--', '--max-iteration'])).not.toThrow();
    expect(check(['--supervisor', '--max-iteration=3'])).toThrow(/Did you mean --max-iterations\?/);
    expect(nearMiss('--verbose', ['--supervisor', '--version', '--help'])).toBeUndefined();
  });

  it("no option of the real claude's --help is taken for a typo of one of ccc's", async () => {
    const help = await runProcess(claudeBin, ['--help'], { env: { ...home.env, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1' } });
    const claudeOptions = [...new Set(help.stdout.match(/--[a-z][a-z-]+/g) ?? [])];
    expect(claudeOptions).toContain('--model');
    const clashes = claudeOptions.filter((o) => nearMiss(o, [...supervisorOptionNames, '--version', '--help']) !== undefined);
    expect(clashes).toEqual([]);
  });
});

describe('ccc help <command>', () => {
  const commands = ['config', 'doctor', 'hook', 'init', 'providers', 'validate', 'observe', 'supervisor-mode', 'supervisor-hook', 'mcp', 'kanban', 'sessions'];

  it.each(commands)("ccc help %s prints that command's usage, exit 0", async (name) => {
    const run = await ccc(['help', name]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: ccc ${name}`);
  });

  it('ccc help supervisor is the supervisor help; ccc help with an unknown name says did you mean, exit 2', async () => {
    expect((await ccc(['help', 'supervisor'])).stdout).toContain('Options of the supervised modes:');
    const typo = await ccc(['help', 'confg']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean `ccc help config`?');
  });
});
