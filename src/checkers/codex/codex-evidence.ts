/**
 * The codex reviewer's evidence: the commands it ran (codex-events.ts), judged by the same rules
 * as the claude reviewer's (reviewer/run-evidence.ts): only a verification command of the
 * project's policy counts; its exit code must be the test's (not masked by a pipe); what the
 * command runs is resolved in the project's files, and its output read for the tests it ran, how
 * much of the suite and which failed. Codex gives the whole output and the exit code of each
 * command, so nothing is cut or moved to the background here.
 */
import type { Evidence } from '../evidence.js';
import { runEvidence, type EvidenceProject } from '../reviewer/run-evidence.js';
import type { CodexCommand } from './codex-events.js';

export function codexEvidence(project: EvidenceProject, commands: readonly CodexCommand[]): Evidence[] {
  return commands.flatMap((run) => runEvidence(project, { command: run.command, exitCode: run.exitCode, output: run.output }) ?? []);
}
