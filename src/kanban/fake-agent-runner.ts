/**
 * An AgentRunner for unit tests: scripted answers, no process. Every invocation is recorded (a
 * copy, so a test can check that a retry was sent byte for byte the same).
 */
import type { AgentInvocation, AgentRun, AgentRunner } from './agent-runner.js';

/** What the scripted agent does: answer with `output` (as structured output) or `text`, or fail. */
export interface FakeAgentAnswer {
  output?: unknown;
  text?: string;
  exitCode?: number;
  stderr?: string;
  sessionId?: string;
  spawnError?: Error;
  /** Runs before the answer: the agent's side effects (editing files). */
  effect?: () => void | Promise<void>;
  /** Never answers; ends only by abort. */
  hang?: boolean;
}

export interface FakeAgentRunner extends AgentRunner {
  readonly calls: AgentInvocation[];
}

export function createFakeAgentRunner(script: (invocation: AgentInvocation, index: number) => FakeAgentAnswer): FakeAgentRunner {
  const calls: AgentInvocation[] = [];
  return {
    calls,
    async run(invocation, signal) {
      const answer = script(invocation, calls.length);
      calls.push({ args: [...invocation.args], stdin: invocation.stdin });
      const base = { exitCode: null, aborted: false, stderrTail: answer.stderr ?? '', costUsd: 0, durationMs: 0 };
      if (signal?.aborted) return { ...base, aborted: true };
      if (answer.spawnError) return { ...base, spawnError: answer.spawnError };
      if (answer.hang) {
        await new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }));
        return { ...base, aborted: true };
      }
      await answer.effect?.();
      const run: AgentRun = { ...base, exitCode: answer.exitCode ?? 0, sessionId: answer.sessionId ?? `fake-session-${calls.length}` };
      if (answer.output !== undefined) run.structuredOutput = answer.output;
      if (answer.text !== undefined) run.resultText = answer.text;
      return run;
    },
  };
}
