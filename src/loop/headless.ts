/**
 * `ccc --supervisor -p "<task>"`: the supervised loop without a terminal, for CI. Each agent turn
 * is a `claude -p` run (the first with the task, the next ones `--resume <session>` with the
 * checker's feedback, all with the user's claude args); between turns the same `reviewStop` as
 * the interactive proxy decides. The agent's text goes to stdout, progress to stderr; with
 * `--json`, stdout carries ccc's event stream as JSON lines instead.
 */
import { modelApiError } from '../claude/api-error.js';
import { runClaudePrint, type ClaudePrintResult } from '../claude/claude-print.js';
import { ExitCode } from '../errors.js';
import { inertText } from '../pty/inert-text.js';
import type { Frame } from '../frames/frame.js';
import { transcriptPathFor } from '../frames/transcript.js';
import { event, type EventSink, type SupervisorEvent } from './events.js';
import { ReplaySubject } from 'rxjs';
import { reviewSummary } from './review-summary.js';
import { evidenceText } from '../checkers/evidence.js';
import { cacheShare, dollars, NO_USAGE, percent } from '../claude/usage.js';
import { reviewStop, type StopDecision } from './review-stop.js';
import type { SupervisorSession } from './supervisor-session.js';

export interface HeadlessOptions {
  task: string;
  json: boolean;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export async function runHeadless(session: SupervisorSession, options: HeadlessOptions): Promise<number> {
  // The last frames of the agent, replayed into each review's context.
  const recent = new ReplaySubject<Frame>(500);
  const keepRecent = session.frames$.subscribe(recent);
  try {
    return await loop(session, options, recent);
  } finally {
    keepRecent.unsubscribe();
  }
}

async function loop(session: SupervisorSession, options: HeadlessOptions, recent: ReplaySubject<Frame>): Promise<number> {
  const emit: EventSink = (e) => {
    session.emit(e);
    if (options.json) options.stdout.write(JSON.stringify(e) + '\n');
    else options.stderr.write(inertText(renderEvent(e))); // a verdict's text is the model's: no escape sequence reaches the terminal
  };
  let sessionId: string | undefined;
  let message = options.task;
  let turn = 0;
  for (;;) {
    turn++;
    emit(event({ kind: 'phase', phase: 'agent' }));
    const args = ['-p', '--output-format', 'stream-json', '--verbose', ...(sessionId ? ['--resume', sessionId] : []), ...session.claudeArgs];
    const result = await runAgentTurn(session, args, message, (frame) => {
      session.onFrame(frame);
      if (options.json) options.stdout.write(JSON.stringify({ kind: 'frame', frame }) + '\n');
      else writeAgentText(frame, options.stdout);
    });
    if (result.spawnError) throw result.spawnError;
    sessionId = result.sessionId ?? sessionId;
    if (sessionId) session.setSessionId(sessionId); // the log exists even when the first turn fails
    if (result.exitCode !== 0 || !sessionId) {
      const code = result.exitCode && result.exitCode !== 0 ? result.exitCode : ExitCode.error;
      const message = agentFailure(result);
      session.logger.error(`agent turn failed: ${message}`, { turn, exit_code: result.exitCode, stderr: result.stderrTail });
      emit(event({ kind: 'error', message }));
      return finish(session, emit, code);
    }
    const decision = await reviewStop(
      {
        sessionId,
        transcriptPath: transcriptPathFor(session.env, session.cwd, sessionId),
        cwd: session.cwd,
        stopHookActive: turn > 1,
        lastAssistantMessage: result.resultText ?? '',
        backgroundTasks: [],
        raw: {},
      },
      { ...session.reviewDeps(), frames: replayed(recent), userPrompts: [options.task], emit },
    );
    if (decision.action === 'block') {
      message = decision.feedback;
      continue;
    }
    return finish(session, emit, exitCodeFor(decision), decision);
  }
}

/** What a ReplaySubject holds now: it replays its buffer synchronously to a new subscriber. */
function replayed<T>(subject: ReplaySubject<T>): T[] {
  const items: T[] = [];
  subject.subscribe((item) => items.push(item)).unsubscribe();
  return items;
}

function runAgentTurn(session: SupervisorSession, args: string[], message: string, onFrame: (f: Frame) => void): Promise<ClaudePrintResult> {
  session.logger.debug('agent turn', { command: [session.config.claude.command, ...args].join(' ') });
  return runClaudePrint({
    command: session.config.claude.command,
    args,
    stdin: message,
    cwd: session.cwd,
    env: session.agentEnv(),
    logger: session.logger,
    onFrame: (frame) => {
      if (frame.type === 'result' && typeof frame.total_cost_usd === 'number') session.addCost(frame.total_cost_usd);
      onFrame(frame);
    },
  });
}

function agentFailure(result: ClaudePrintResult): string {
  const apiError = modelApiError(result);
  if (apiError) return `the agent could not reach the model: ${apiError}`;
  const lastLine = result.stderrTail.trim().split('\n').pop();
  return `the agent exited with code ${result.exitCode}${lastLine ? `: ${lastLine}` : ''}`;
}

export function exitCodeFor(decision: Extract<StopDecision, { action: 'allow' }>): number {
  switch (decision.reason) {
    case 'completed':
    case 'disabled':
    case 'recursion':
    case 'background-tasks':
      return ExitCode.completed;
    case 'checker-failed':
      return ExitCode.checkerFailed;
    default:
      return ExitCode.limit;
  }
}

function finish(session: SupervisorSession, emit: EventSink, code: number, decision?: Extract<StopDecision, { action: 'allow' }>): number {
  if (decision && decision.reason !== 'completed') emit(event({ kind: 'stopped', reason: decision.reason, message: decision.message }));
  emit(event({ kind: 'end', exit_code: code, reviews: session.reviews, review_usage: session.reviewUsage }));
  return code;
}

/** The agent's answer as text for people (a terminal, a CI log, observers): inert like the feedback; `--json` keeps it exact. */
function writeAgentText(frame: Frame, out: NodeJS.WritableStream) {
  if (frame.type !== 'assistant') return;
  const content = (frame.message as { content?: Array<{ type: string; text?: string }> } | undefined)?.content;
  for (const block of content ?? []) {
    if (block.type !== 'text' || !block.text) continue;
    const text = inertText(block.text.replace(/\r\n/g, '\n'));
    out.write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** Human-readable progress on stderr. */
export function renderEvent(e: SupervisorEvent): string {
  switch (e.kind) {
    case 'iteration':
      return `ccc: review ${e.n}/${e.max}\n`;
    case 'checker':
      return e.state === 'start' ? `ccc:   ${e.checker} checking…\n` : e.state === 'done' ? `ccc:   ${e.checker} answered in ${((e.duration_ms ?? 0) / 1000).toFixed(1)}s\n` : `ccc:   ${e.checker} failed\n`;
    case 'verdict':
      return e.completed ? `ccc: ✓ complete (${verdictDetails(e)})\n` : `ccc: ✗ not complete (${verdictDetails(e)}): ${firstLine(e.feedback)}\n`;
    case 'stopped':
      return `ccc: stopped: ${e.message}\n`;
    case 'error':
      return `ccc: error: ${e.message}\n`;
    case 'end': {
      const summary = reviewSummary(e.reviews ?? 0, e.review_usage ?? NO_USAGE);
      return summary ? `ccc: ${summary}\n` : '';
    }
    default:
      return '';
  }
}

/** `claude, verified by: npm test, $0.0061, 97% cached`. */
function verdictDetails(e: Extract<SupervisorEvent, { kind: 'verdict' }>): string {
  const evidence = evidenceText(e.evidence, e.completed);
  const spent = e.usage ? [dollars(e.usage.cost_usd), `${percent(cacheShare(e.usage))} cached`] : [];
  return [e.checker, ...(evidence ? [evidence] : []), ...spent].join(', ');
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
