/** A checker's time limit: its own `timeout_seconds` option, else `supervisor.timeout_seconds`. A leaf. */
export function checkerTimeoutSeconds(options: Record<string, unknown>, supervisorTimeoutSeconds: number): number {
  return typeof options.timeout_seconds === 'number' ? options.timeout_seconds : supervisorTimeoutSeconds;
}
