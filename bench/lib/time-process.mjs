/** One node process from spawn to exit (wall ms), with its output, as the wall-time cases measure it. */
import { spawn } from 'node:child_process';

export function timeProcess(args, { env, input, cwd }) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ ms: Number(process.hrtime.bigint() - t0) / 1e6, code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a case may exit without reading
    child.stdin.end(input ?? '');
  });
}
