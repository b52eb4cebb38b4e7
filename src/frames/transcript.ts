/**
 * A Claude Code session transcript: JSONL at `~/.claude/projects/<project dir>/<session_id>.jsonl`
 * holding the same message shapes as stream-json (see transcript-summary.ts for the shapes).
 * A transcript can be huge, so it is only ever streamed through the bounded line splitter.
 * Following a live transcript is transcript-tail.ts (RxJS; reading one here needs none).
 */
import fs from 'node:fs';
import path from 'node:path';
import { homeDir } from '../config/config-dir.js';
import { readFrames, type FrameLogger } from './frame-lines.js';
import { createTranscriptSummary, type TranscriptSummary } from './transcript-summary.js';

export type { TranscriptSummary } from './transcript-summary.js';

/** Claude Code caps the project directory name at this many characters, then adds a hash. */
const MAX_PROJECT_DIR_CHARS = 200;

/**
 * The directory name Claude Code gives a project: every character other than `[a-zA-Z0-9]`
 * becomes `-`; names longer than 200 characters are cut and get `-<hash of the cwd>` appended
 * (the 32-bit Java string hash, base 36; read from the 2.1.330 bundle and pinned in a test).
 */
export function projectDirName(cwd: string): string {
  const name = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (name.length <= MAX_PROJECT_DIR_CHARS) return name;
  return `${name.slice(0, MAX_PROJECT_DIR_CHARS)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

function javaStringHash(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = ((hash << 5) - hash + text.charCodeAt(i)) | 0;
  return hash;
}

/**
 * Where Claude Code writes the transcript of `sessionId` run in `cwd`, for a user whose home is
 * `home` and who has no `CLAUDE_CONFIG_DIR` (see transcriptPathFor). Prefer the Stop hook's
 * `transcript_path` when there is one: it is authoritative.
 */
export function transcriptPath(home: string, cwd: string, sessionId: string): string {
  return path.join(home, '.claude', 'projects', projectDirName(cwd), `${sessionId}.jsonl`);
}

/**
 * The same for the environment claude runs with: `CLAUDE_CONFIG_DIR`, when set, replaces
 * `~/.claude` (checked on 2.1.330: the transcript goes to `$CLAUDE_CONFIG_DIR/projects/…`).
 */
export function transcriptPathFor(env: NodeJS.ProcessEnv, cwd: string, sessionId: string): string {
  return path.join(projectTranscriptDir(env, cwd), `${sessionId}.jsonl`);
}

function projectTranscriptDir(env: NodeJS.ProcessEnv, cwd: string): string {
  const configDir = env.CLAUDE_CONFIG_DIR || path.join(homeDir(env), '.claude');
  return path.join(configDir, 'projects', projectDirName(cwd));
}

/**
 * The session `claude --continue` would continue in `cwd`: the project's most recently written
 * transcript (docs/design/claude-facts.md, "Sessions"); with `interactive`, the newest one not made in
 * print mode, which the TUI's `--continue` skips. Undefined when the project has none.
 */
export function newestSessionId(env: NodeJS.ProcessEnv, cwd: string, options: { interactive?: boolean } = {}): string | undefined {
  const dir = projectTranscriptDir(env, cwd);
  const sessions: Array<{ id: string; mtime: number }> = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    try {
      const stat = fs.statSync(path.join(dir, name));
      if (stat.isFile()) sessions.push({ id: name.slice(0, -'.jsonl'.length), mtime: stat.mtimeMs });
    } catch {
      // Removed while listing: not a session to continue.
    }
  }
  sessions.sort((a, b) => b.mtime - a.mtime);
  return sessions.find((s) => !options.interactive || !madeInPrintMode(path.join(dir, `${s.id}.jsonl`)))?.id;
}

/** How much of a transcript's start is read for its `entrypoint`. */
const ENTRYPOINT_PROBE_BYTES = 64 * 1024;

/** A transcript claude wrote in print mode: its lines say `"entrypoint":"sdk-cli"` (the TUI's say `"cli"`). */
function madeInPrintMode(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(ENTRYPOINT_PROBE_BYTES);
    const read = fs.readSync(fd, buffer, 0, buffer.length, 0);
    return /"entrypoint":"sdk-cli"/.exec(buffer.subarray(0, read).toString('utf8')) !== null;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface ReadTranscriptOptions {
  /** Receives a WARN for every line that is not a frame. Default: dropped. */
  logger?: FrameLogger;
  maxLineBytes?: number;
}

/**
 * Reads a whole transcript and summarises it. Rejects when the file cannot be read (ENOENT
 * included: the caller knows whether a missing transcript is normal).
 */
export function readTranscript(file: string, options: ReadTranscriptOptions = {}): Promise<TranscriptSummary> {
  const summary = createTranscriptSummary();
  return new Promise((resolve, reject) => {
    readFrames(
      fs.createReadStream(file),
      { logger: options.logger ?? silentLogger, maxLineBytes: options.maxLineBytes, source: 'transcript' },
      {
        frame: (frame) => summary.add(frame),
        error: reject,
        end: () => resolve(summary.result()),
      },
    );
  });
}

const silentLogger: FrameLogger = { warn: () => {} };
