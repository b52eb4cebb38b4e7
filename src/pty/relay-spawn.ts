/**
 * Starting `ccc-relay`: its arguments (the timing rules, the size, the tee, the tail) and its
 * descriptors. The relay's end of the channel becomes its fd 3 and the front's socket its fd 4
 * (`--hold-fd`): the relay closes that socket only once the user's terminal is back, so the shell
 * that waits for the front resumes after the restore, also when ccc itself is killed. ccc's own
 * copies of both are closed right after the spawn, whether it worked or not.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { BytePathOptions } from './byte-path.js';
import { TIMING } from './byte-path-rules.js';
import { frontFd, releaseFront } from '../process/front-link.js';
import { stdoutSize } from './terminal.js';

/** The relay's fd for the front's socket (`--hold-fd`). */
const HOLD_FD = 4;

export interface RelaySpawnOptions extends BytePathOptions {
  relayPath: string;
  /** Used when the user's stdin is not a terminal (the relay asks the terminal otherwise); stdout's size by default. */
  cols?: number;
  rows?: number;
}

/** Spawns the relay with `channel` as its fd 3 (a socket, or 'pipe' for one made by spawn); throws what spawn throws. */
export function spawnRelay(options: RelaySpawnOptions, channel: Socket | 'pipe'): ChildProcess {
  const env = { ...options.env, TERM: options.env.TERM ?? 'xterm-256color' };
  const front = frontFd();
  try {
    const stdio = ['inherit', 'inherit', 'inherit', channel, ...(front === undefined ? [] : [front])] as const;
    return spawn(options.relayPath, relayArgs(options, front !== undefined), { cwd: options.cwd, env, stdio: [...stdio] });
  } finally {
    if (channel !== 'pipe') channel.destroy(); // the relay has its own copy; its exit must end the stream
    releaseFront();
  }
}

function relayArgs(options: RelaySpawnOptions, holdsFront: boolean): string[] {
  const timing = { ...TIMING, ...options.timing };
  return [
    ...(options.watching ? ['--tee-output'] : []),
    ...(options.tailBytes ? ['--tail-bytes', String(options.tailBytes)] : []),
    ...['--cols', String(options.cols ?? stdoutSize().cols), '--rows', String(options.rows ?? stdoutSize().rows)],
    ...['--inject-idle-ms', String(timing.injectIdleMs), '--drain-quiet-ms', String(timing.drainQuietMs), '--drain-max-ms', String(timing.drainMaxMs)],
    ...['--redraw-nudge-ms', String(timing.redrawNudgeMs)],
    ...(holdsFront ? ['--hold-fd', String(HOLD_FD)] : []),
    ...['--', options.command, ...options.args],
  ];
}
