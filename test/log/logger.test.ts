/** The structured log: the log line format of docs/design/files.md exactly, level filtering, children, files. */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CheckerLogger } from '../../src/checkers/types.js';
import { formatLogLine, formatValue } from '../../src/log/format.js';
import { createLogger } from '../../src/log/logger.js';
import { createNullLogger, createRecordingLogger } from '../../src/log/memory-logger.js';
import { repoRoot } from '../support/claude-env.js';
import { runProcess } from '../support/run-process.js';
import { makeTempHome, type TempHome } from '../support/temp-home.js';

/** 002: `[timestamp] [LEVEL] [module] key=value … message`, timestamp ISO 8601 UTC with ms. */
const LINE = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\] \[(DEBUG|INFO|WARN|ERROR)\] \[([^\]]+)\] (.*)$/;

let t: TempHome;
beforeEach(() => {
  t = makeTempHome();
});
afterEach(() => t.cleanup());

function lines(file: string): string[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('createLogger', () => {
  it('writes lines in the 002 format with bound and per-call fields before the message', () => {
    const file = path.join(t.claudeDir, 'ccc', 'supervisor-abc.log');
    const before = Date.now();
    const log = createLogger({ file, level: 'info', module: 'supervisor-hook', fields: { session_id: 'abc123' } });
    log.info('hook started', { iteration: 4, max_iterations: 20 });
    log.warn('stream line is not JSON', { line: 'oops "quoted" text', duration: '1.5s' });
    const [first, second] = lines(file);
    const m = LINE.exec(first!)!;
    expect(m).not.toBeNull();
    expect(Date.parse(m[1]!)).toBeGreaterThanOrEqual(before - 1);
    expect(Date.parse(m[1]!)).toBeLessThanOrEqual(Date.now());
    expect(first!.slice(27)).toBe('[INFO] [supervisor-hook] session_id=abc123 iteration=4 max_iterations=20 hook started');
    expect(second!.slice(27)).toBe('[WARN] [supervisor-hook] session_id=abc123 line="oops \\"quoted\\" text" duration=1.5s stream line is not JSON');
  });

  it('filters by level: at info, debug lines are dropped and info/warn/error pass (002)', () => {
    const file = path.join(t.root, 'logs', 'x.log');
    const log = createLogger({ file, level: 'info', module: 'm' });
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines(file).map((l) => LINE.exec(l)![2])).toEqual(['INFO', 'WARN', 'ERROR']);
    expect(log.enabled('debug')).toBe(false);
    expect(log.enabled('warn')).toBe(true);

    const errorsOnly = path.join(t.root, 'logs', 'y.log');
    const quiet = createLogger({ file: errorsOnly, level: 'error', module: 'm' });
    quiet.warn('w');
    quiet.error('e');
    expect(lines(errorsOnly).map((l) => LINE.exec(l)![2])).toEqual(['ERROR']);

    const all = path.join(t.root, 'logs', 'z.log');
    createLogger({ file: all, level: 'debug', module: 'm' }).debug('d');
    expect(lines(all).map((l) => LINE.exec(l)![2])).toEqual(['DEBUG']);
  });

  it('child loggers name their module and add fields; call fields override bound ones', () => {
    const file = path.join(t.root, 'c.log');
    const log = createLogger({ file, level: 'debug', module: 'loop', fields: { session_id: 's1', iteration: 1 } });
    const child = log.child('checker', { checker: 'claude' });
    child.debug('spawning', { iteration: 2 });
    log.info('parent unchanged');
    const [a, b] = lines(file).map((l) => LINE.exec(l)!);
    expect([a![3], a![4]]).toEqual(['checker', 'session_id=s1 iteration=2 checker=claude spawning']);
    expect([b![3], b![4]]).toEqual(['loop', 'session_id=s1 iteration=1 parent unchanged']);
  });

  it('creates the log directory with mode 0700 and the file with 0600', () => {
    const dir = path.join(t.root, 'fresh', 'ccc');
    const file = path.join(dir, 'supervisor-s.log');
    createLogger({ file, level: 'info', module: 'm' }).info('x');
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('writes synchronously: a process that exits right after logging loses nothing', async () => {
    const file = path.join(t.root, 'exit.log');
    const script = [
      `import { createLogger } from ${JSON.stringify(path.join(repoRoot, 'dist', 'log', 'logger.js'))};`,
      `const log = createLogger({ file: ${JSON.stringify(file)}, level: 'info', module: 'hook', stderr: true });`,
      'for (let i = 0; i < 200; i++) log.info("line", { i });',
      'process.exit(0);',
    ].join('\n');
    const r = await runProcess(process.execPath, ['--input-type=module', '-e', script]);
    // A failure here once went unexplained (a first try on a loaded CI machine): each check says what the process printed.
    const said = `exit ${r.code} ${r.signal ?? ''}\nstderr (last 2000): ${r.stderr.slice(-2000)}`;
    expect(r.code, said).toBe(0);
    expect(lines(file), said).toHaveLength(200);
    expect(lines(file)[199]).toMatch(/\[INFO\] \[hook\] i=199 line$/);
    const stderrLines = r.stderr.split('\n').filter(Boolean);
    expect(
      stderrLines.filter((l) => !l.includes('[INFO] [hook]')),
      said,
    ).toEqual([]);
    expect(stderrLines, said).toHaveLength(200);
  });

  /**
   * An empty named pipe for a child's stderr, nobody reading it yet, and how many log lines of the
   * test's length it holds (a line may not share a page it does not fit in).
   */
  function stderrPipe() {
    const fifo = path.join(t.root, 'stderr.fifo');
    execFileSync('mkfifo', [fifo]);
    const readFd = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const writeFd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const sample = Buffer.from(formatLogLine({ date: new Date(), level: 'INFO', module: 'hook', fields: { i: '0000' }, message: 'line' }));
    let fit = 0;
    try {
      for (;;) {
        expect(fs.writeSync(writeFd, sample)).toBe(sample.length); // a write of up to PIPE_BUF bytes is whole or refused
        fit++;
      }
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe('EAGAIN');
    }
    expect(fs.readSync(readFd, Buffer.alloc(1 << 20))).toBe(fit * sample.length);
    return { readFd, writeFd, fit };
  }

  /** A process that logs `total` lines to `file` and to `stderr` (a descriptor), then exits at once. */
  function logThenExit(file: string, total: number, stderr: number) {
    const script = [
      `import { createLogger } from ${JSON.stringify(path.join(repoRoot, 'dist', 'log', 'logger.js'))};`,
      `const log = createLogger({ file: ${JSON.stringify(file)}, level: 'info', module: 'hook', stderr: true });`,
      `for (let i = 0; i < ${total}; i++) log.info("line", { i: String(i).padStart(4, "0") });`,
      'process.exit(0);',
    ].join('\n');
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', stderr] });
    fs.closeSync(stderr);
    return once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  }

  it('a process that exits right after logging loses no stderr line when the reader of its stderr is behind', async () => {
    // A reader that is behind (a busy parent, a CI log) leaves the pipe full: a line that waits in
    // the process's own queue is lost at process.exit. The pipe here is read only once the process
    // has filled it; a line that reaches the file has been written to stderr (stderr goes first).
    const file = path.join(t.root, 'behind.log');
    const { readFd, writeFd, fit } = stderrPipe();
    const total = 3 * fit;
    const exited = logThenExit(file, total, writeFd);
    let gone = false;
    void exited.then(() => (gone = true));
    const logged = () => (fs.existsSync(file) ? lines(file).length : 0);
    await expect.poll(() => gone || logged() >= fit, { timeout: 30_000 }).toBe(true);

    let stderr = '';
    const reader = new net.Socket({ fd: readFd, readable: true, writable: false }).setEncoding('utf8');
    reader.on('data', (d: string) => (stderr += d));
    const [[code]] = await Promise.all([exited, once(reader, 'end')]);
    reader.destroy();
    expect(code).toBe(0);
    expect(lines(file)).toHaveLength(total);
    const shown = stderr.split('\n').filter(Boolean);
    expect(shown).toHaveLength(total);
    expect(shown.at(-1)).toMatch(new RegExp(`\\[INFO\\] \\[hook\\] i=${total - 1} line$`));
  });

  it('a reader of stderr that never reads does not hang the process: it logs every line to its file and exits', async () => {
    const file = path.join(t.root, 'stalled.log');
    const { readFd, writeFd, fit } = stderrPipe();
    try {
      const [code] = await logThenExit(file, fit + 50, writeFd);
      expect(code).toBe(0);
      expect(lines(file)).toHaveLength(fit + 50);
    } finally {
      fs.closeSync(readFd);
    }
  });

  it('a log file that cannot be written is reported once on stderr and never throws', async () => {
    const blocker = t.write('blocker', 'a file where a directory should be');
    const script = [
      `import { createLogger } from ${JSON.stringify(path.join(repoRoot, 'dist', 'log', 'logger.js'))};`,
      `const log = createLogger({ file: ${JSON.stringify(path.join(blocker, 'x.log'))}, level: 'info', module: 'm' });`,
      'log.info("one"); log.info("two"); console.log("still running");',
    ].join('\n');
    const r = await runProcess(process.execPath, ['--input-type=module', '-e', script]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('still running\n');
    expect(r.stderr.match(/cannot write log file/g)).toHaveLength(1);
  });

  it('fits the CheckerLogger interface, as do the null and recording loggers', () => {
    const loggers: CheckerLogger[] = [createLogger({ level: 'info', module: 'm' }), createNullLogger(), createRecordingLogger()];
    for (const l of loggers) l.info('fine');
    const rec = createRecordingLogger('root');
    rec.child('sub', { a: 1 }).warn('w', { b: 2 });
    expect(rec.lines).toEqual([{ level: 'warn', module: 'sub', message: 'w', fields: { a: 1, b: 2 } }]);
  });
});

describe('formatLogLine', () => {
  const date = new Date(Date.UTC(2026, 10, 22, 1, 2, 3, 456));

  it('matches the 002 example exactly', () => {
    expect(formatLogLine({ date, level: 'INFO', module: 'module', fields: { key: 'value', key2: 'value2' }, message: 'message' })).toBe(
      '[2026-11-22T01:02:03.456Z] [INFO] [module] key=value key2=value2 message\n',
    );
  });

  it('quotes values with spaces, quotes, = or control characters, and keeps other values bare', () => {
    expect(formatValue('plain')).toBe('plain');
    expect(formatValue('a b')).toBe('"a b"');
    expect(formatValue('say "hi"')).toBe('"say \\"hi\\""');
    expect(formatValue('a=b')).toBe('"a=b"');
    expect(formatValue('')).toBe('""');
    expect(formatValue('line\nbreak')).toBe('"line\\nbreak"');
    expect(formatValue(42)).toBe('42');
    expect(formatValue(true)).toBe('true');
    expect(formatValue(null)).toBe('null');
    expect(formatValue(new Error('it broke'))).toBe('"it broke"');
    expect(formatValue(['claude', '-p'])).toBe('"[\\"claude\\",\\"-p\\"]"');
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(formatValue(circular)).toBe('"[object Object]"');
  });

  // Line terminators of every kind (Unicode's too) mixed into ordinary and odd text.
  const tricky = fc.oneof(
    fc.string({ unit: 'grapheme' }),
    fc.string({ unit: 'binary' }),
    fc.array(fc.constantFrom('a', ' ', '"', '=', '\\', '\n', '\r', '\u0085', '\u2028', '\u2029', '\u001b', '\u007f', 'é')).map((a) => a.join('')),
  );

  it('fuzz: every entry is exactly one line, and every string value reads back', () => {
    fc.assert(
      fc.property(tricky, tricky, fc.string(), (value, message, key) => {
        const line = formatLogLine({ date, level: 'WARN', module: 'm', fields: { [key]: value }, message });
        expect(line.endsWith('\n')).toBe(true);
        expect(line.slice(0, -1)).not.toMatch(/[\r\n\u000b\u000c\u0085\u2028\u2029\u0000-\u001f\u007f-\u009f]/);
        const m = LINE.exec(line.slice(0, -1));
        expect(m).not.toBeNull();
        const rest = m![4]!;
        const token = formatValue(value);
        expect(rest.slice(rest.indexOf('=') + 1).startsWith(token)).toBe(true);
        expect(token.startsWith('"') ? JSON.parse(token) : token).toBe(value);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the log without file descriptors (ulimit -n)', () => {
  it('nothing reaches the terminal while warnings are held (a TUI on it), one WARN after, and logging goes on once descriptors are free', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-log-fds-'));
    try {
      const file = path.join(dir, 'session.log');
      const script = path.join(repoRoot, 'test', 'log', 'fixtures', 'log-without-descriptors.mjs');
      const run = await runProcess('/bin/bash', ['-c', `ulimit -n 64; exec "${process.execPath}" "${script}" "${path.join(repoRoot, 'dist')}" "${file}"`]);
      expect(run.code, run.stderr).toBe(0);
      const [during, after] = run.stderr.split('HELD\n');
      expect(during).toBe('');
      expect(after).toMatch(/^ccc: WARN: lines of .*session\.log were lost \(EMFILE: too many open files.*\); raise the open-file limit \(ulimit -n\)\.\n$/);
      expect(JSON.parse(run.stdout)).toHaveLength(1); // shown once, as an event, while held
      const lines = fs.readFileSync(file, 'utf8');
      expect(lines).toMatch(/ before\n.* after\n$/);
      expect(lines).not.toContain('lost');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
