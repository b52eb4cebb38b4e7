/** `ccc supervisor-hook`: see cli/supervisor-hook.ts. Kept tiny for a fast cold start. */
export async function runSupervisorHookCommand(args: string[]): Promise<number> {
  const { runSupervisorHook } = await import('./supervisor-hook.js');
  return runSupervisorHook({ args, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });
}
