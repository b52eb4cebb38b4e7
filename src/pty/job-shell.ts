/**
 * How the Node byte path runs the agent: as the one job of a POSIX shell that leads the pty's
 * session, as a login shell's job runs in a terminal. A TUI stops itself on Ctrl-Z by sending
 * SIGTSTP to its process group (claude does: test/claude/claude-suspend.test.ts); as the leader of
 * the pty's session, which node-pty would make it, that group has no parent in its session, and
 * the kernel discards the signal (an orphaned process group). As a job it stops; the shell then
 * stops itself, which ccc sees (node-job-control.ts), and when ccc continues it the shell brings
 * the agent back (`fg`: the terminal and SIGCONT). The shell's own messages ("Stopped") go nowhere;
 * the agent keeps the real stderr. It ends as the agent ended, by the same signal when the status
 * says one (an agent that exits 130 cannot be told from one killed by SIGINT; the exit code of ccc
 * is the same either way). The native relay does the same in C (native/relay.c).
 */
export const JOB_SHELL = '/bin/sh';

const SCRIPT = `exec 3>&2 2>/dev/null
set -m
"$@" 2>&3 3>&-
s=$?
while jobs %1 >/dev/null; do
  kill -STOP $$
  fg %1 >/dev/null
  s=$?
done
exec 2>&3 3>&-
[ "$s" -gt 128 ] && kill -$((s - 128)) $$
exit "$s"`;

export function jobShellArgs(command: string, args: string[]): string[] {
  return ['-c', SCRIPT, 'ccc-agent', command, ...args];
}
