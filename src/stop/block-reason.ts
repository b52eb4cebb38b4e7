/**
 * The words of ccc's Stop-hook block: the `reason` the agent reads when ccc sends it back
 * (interactive, and the standalone hook; headless sends the feedback as its next `-p` message).
 *
 * Claude Code since 2.1.331 hands a block's reason to the model inside a system reminder whose
 * preamble (2.1.332) says to follow what the hook itself asks as the user's standing instruction
 * and to take what the hook only relays, such as another person's words, as data
 * (docs/design/claude-facts.md, "How a Stop hook's block reaches the model"). The reviewer's
 * findings are such relayed words. So the reason opens with ccc's own request, in ccc's name (go
 * on with the task until the problems named are fixed), and gives the findings after it as the
 * reviewer's report: the facts that request acts on. Older claude sends the same text without
 * the reminder, where it reads the same.
 */

const ASKER = 'ccc (the Stop hook that supervises this session)';

/** The reason of a "not complete" block: ccc's request, then the reviewer's findings. */
export function blockReason(findings: string): string {
  return [
    `${ASKER} asks you to go on with the task: its review found the work not finished.`,
    'Fix each problem the reviewer reports below, check the fix, then stop; ccc reviews the work again at your next stop.',
    '',
    "The reviewer's report:",
    findings,
  ].join('\n');
}

/** The reason of the wind-down block at a limit: ccc's own request throughout (loop/wind-down.ts). */
export function windDownReason(message: string): string {
  return `${ASKER} asks you to end the work with this turn.\n${message}`;
}
