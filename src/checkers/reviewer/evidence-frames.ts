/**
 * The reviewer's evidence, read from its own stream-json frames: every Bash `tool_use` that runs a
 * verification command, matched with its `tool_result`. Claude reports a command that exited 0
 * as a result without `is_error`, and one that failed as `is_error` with text starting `Exit code
 * N` (pinned in test/claude/bash-tool-result.test.ts). A refused call never ran: the guard's
 * reason (`… is not allowed …`) is not evidence. A command whose exit code is not the test's
 * (`npm test | tail -n 40`) is recorded without one. The command, its exit code and its output
 * are judged by run-evidence.ts, which knows nothing of claude's stream: what the command runs,
 * how many tests passed, whether it was the whole suite, which tests failed.
 */
import type { Evidence } from '../evidence.js';
import type { Frame } from '../../frames/frame.js';
import { verificationOf } from './reviewer-policy.js';
import { runEvidence, type EvidenceProject } from './run-evidence.js';

type Block = { type?: unknown; id?: unknown; name?: unknown; input?: unknown; tool_use_id?: unknown; is_error?: unknown; content?: unknown };

export interface EvidenceCollector {
  onFrame: (frame: Frame) => void;
  /** The verification commands that ran, in the order their results came. */
  evidence(): Evidence[];
}

export function evidenceCollector(project: EvidenceProject): EvidenceCollector {
  const pending = new Map<string, { command: string; background: boolean }>();
  const found: Evidence[] = [];
  return {
    onFrame(frame) {
      for (const block of blocksOf(frame)) {
        if (frame.type === 'assistant' && block.type === 'tool_use' && block.name === 'Bash' && typeof block.id === 'string') {
          const input = block.input as { command?: unknown; run_in_background?: unknown } | undefined;
          const command = input?.command;
          if (typeof command !== 'string') continue;
          if (verificationOf(project.policy, command).verifies) pending.set(block.id, { command, background: input?.run_in_background === true });
        } else if (frame.type === 'user' && block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
          const call = pending.get(block.tool_use_id);
          if (call === undefined) continue;
          pending.delete(block.tool_use_id);
          const exit = exitCode(block);
          if (exit === 'refused') continue;
          const evidence = runEvidence(project, { command: call.command, exitCode: exit, output: textOf(block.content), background: call.background });
          if (evidence) found.push(evidence);
        }
      }
    },
    evidence: () => [...found],
  };
}

function blocksOf(frame: Frame): Block[] {
  const content = (frame.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? (content.filter((b) => b && typeof b === 'object') as Block[]) : [];
}

function exitCode(block: Block): number | null | 'refused' {
  if (block.is_error !== true) return 0;
  const text = textOf(block.content);
  const code = /^Exit code (\d+)/.exec(text)?.[1];
  if (code !== undefined) return Number(code);
  return / is not allowed/.test(text) ? 'refused' : null;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (b && typeof (b as { text?: unknown }).text === 'string' ? (b as { text: string }).text : '')).join('\n');
}
