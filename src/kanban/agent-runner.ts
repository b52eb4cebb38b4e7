/**
 * The edge between the workflow and a running agent. The real runner is one
 * `claude -p --output-format stream-json --verbose --json-schema …` in the project directory
 * (runClaudePrint); `fake-agent-runner.ts` beside it scripts answers for unit tests.
 */
import { runClaudePrint } from '../claude/claude-print.js';
import type { CheckerLogger } from '../checkers/types.js';
import { childRunner as realChildRunner, type ChildRunner } from '../process/child-process.js';

/** One agent call: the same value is run again, unchanged, for every retry. */
export interface AgentInvocation {
  args: readonly string[];
  stdin: string;
}

export interface AgentRun {
  exitCode: number | null;
  /** The signal that ended claude, if one did. */
  signal?: string | null;
  /** Ended by the caller's AbortSignal (Ctrl-C): not a failure of the agent. */
  aborted: boolean;
  sessionId?: string;
  structuredOutput?: unknown;
  resultText?: string;
  stderrTail: string;
  /** claude could not be started at all. */
  spawnError?: Error;
  costUsd: number;
  durationMs: number;
}

export interface AgentRunner {
  /** Never rejects: every failure is in the result. */
  run(invocation: AgentInvocation, signal?: AbortSignal): Promise<AgentRun>;
}

export interface ClaudeAgentRunnerOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  logger?: CheckerLogger;
  /** The child edge (tests of this runner inject the fake child runner). */
  childRunner?: ChildRunner;
  /** Told the pid of each agent while it runs (the kanban lock records it for crash recovery). */
  tracker?: AgentTracker;
}

interface AgentTracker {
  agentStarted(pid: number): void;
  agentEnded(): void;
}

export function claudeAgentRunner(options: ClaudeAgentRunnerOptions): AgentRunner {
  const base = options.childRunner ?? realChildRunner;
  const { tracker } = options;
  const runner: ChildRunner = tracker
    ? { run: (o) => base.run({ ...o, onSpawn: (pid) => tracker.agentStarted(pid) }).finally(() => tracker.agentEnded()) }
    : base;
  return {
    async run(invocation, signal) {
      const result = await runClaudePrint({
        command: options.command,
        args: [...invocation.args],
        stdin: invocation.stdin,
        cwd: options.cwd,
        env: options.env,
        signal,
        logger: options.logger,
        runner,
      });
      return {
        exitCode: result.exitCode,
        signal: result.signal,
        aborted: result.aborted,
        ...(result.sessionId === undefined ? {} : { sessionId: result.sessionId }),
        ...(result.structuredOutput === undefined ? {} : { structuredOutput: result.structuredOutput }),
        ...(result.resultText === undefined ? {} : { resultText: result.resultText }),
        stderrTail: result.stderrTail,
        ...(result.spawnError === undefined ? {} : { spawnError: result.spawnError }),
        costUsd: result.costUsd,
        durationMs: result.durationMs,
      };
    },
  };
}
