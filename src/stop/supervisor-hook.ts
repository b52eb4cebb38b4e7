import type { Readable, Writable } from 'node:stream';

export interface HookIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
}

export async function runSupervisorHook(io: HookIo): Promise<number> {
  io.stderr.write('ccc supervisor-hook: not built yet\n');
  return 0;
}
