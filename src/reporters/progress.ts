/**
 * Progress for people, one `ccc: …` line per event on stderr (headless, `ccc kanban --supervise`),
 * and the agent's own answers on stdout when the run has one. Every line is made inert: a
 * verdict's feedback and the agent's text are the model's, and no escape sequence of theirs may
 * reach a terminal or a CI log.
 */
import { failureLineIndexes } from '../checkers/failure-lines.js';
import { shownVerdict } from '../checkers/verdict-text.js';
import { reviewKindDetails } from '../checkers/verification.js';
import { cacheShare, costText, NO_USAGE, percent } from '../claude/usage.js';
import type { Frame } from '../frames/frame.js';
import { spendText } from '../loop/spend-line.js';
import type { SupervisorEvent } from '../loop/events.js';
import { resumeTimeText } from '../loop/limit-wait.js';
import { reviewSummary } from '../loop/review-summary.js';
import { inertText } from '../pty/inert-text.js';
import type { Reporter } from './reporter.js';

export interface ProgressOptions {
  /** Where the progress lines go (stderr). */
  write: (text: string) => void;
  /** Where the agent's answers go (headless: stdout); without it they are not shown. */
  agentText?: (text: string) => void;
}

export function progressReporter(options: ProgressOptions): Reporter {
  let lastError: string | undefined;
  return {
    onEvent(e) {
      // A stop for the error just shown is not shown again.
      if (!(e.kind === 'stopped' && e.message === lastError)) {
        const line = renderEvent(e);
        if (line) options.write(inertText(line));
      }
      if (e.kind === 'error') lastError = e.message;
    },
    onFrame: options.agentText ? (frame) => writeAgentText(frame, options.agentText!) : undefined,
  };
}

/** The agent's answer as text for people (a terminal, a CI log, observers): inert like the feedback; `--json` keeps it exact. */
function writeAgentText(frame: Frame, write: (text: string) => void) {
  if (frame.type !== 'assistant') return;
  const content = (frame.message as { content?: Array<{ type: string; text?: string }> } | undefined)?.content;
  for (const block of content ?? []) {
    if (block.type !== 'text' || !block.text) continue;
    const text = inertText(block.text.replace(/\r\n/g, '\n'));
    write(text.endsWith('\n') ? text : `${text}\n`);
  }
}

/** One event as progress lines (empty for the events people need not see). */
export function renderEvent(e: SupervisorEvent): string {
  switch (e.kind) {
    case 'iteration':
      return `ccc: review ${e.n}/${e.max}\n`;
    case 'checker':
      return e.state === 'start'
        ? `ccc:   ${e.checker} checking…\n`
        : e.state === 'done'
          ? `ccc:   ${e.checker} answered in ${((e.duration_ms ?? 0) / 1000).toFixed(1)}s\n`
          : `ccc:   ${e.checker} failed\n`;
    case 'verdict': {
      // The sign is the outcome's: a completion that is not verified is not drawn as a success.
      const shown = shownVerdict(e.completed, e.evidence);
      return e.completed
        ? `ccc: ${shown.sign} complete (${verdictDetails(e, shown.details)})\n`
        : `ccc: ${shown.sign} not complete (${verdictDetails(e, shown.details)}): ${feedbackLines(e.feedback)}`;
    }
    case 'stopped':
      return `ccc: stopped: ${e.message}\n`;
    case 'waiting': {
      const until = new Date(e.until);
      return `ccc: waiting on the model's limit until ${resumeTimeText(until, until.getTime() - Date.parse(e.at))}, then resuming the ${e.who === 'agent' ? "agent's turn" : 'review'}\n`;
    }
    case 'wait-over':
      return e.outcome === 'resumed'
        ? `ccc: the wait is over; resuming the ${e.who === 'agent' ? "agent's turn" : 'review'}\n`
        : "ccc: gave up waiting on the model's limit (supervisor.limit_wait_minutes)\n";
    case 'wind-down':
      return `ccc: ${e.message}; asking the agent to write down where the work stands (one last turn, not reviewed)\n`;
    case 'warning':
      return `ccc: warning: ${e.message}\n`;
    case 'error':
      return `ccc: error: ${e.message}\n`;
    case 'end': {
      // The run's summary line: a headless run's last progress line.
      const summary = reviewSummary(e.reviews ?? 0, e.review_usage ?? NO_USAGE, e);
      return summary ? `ccc: ${summary}\n` : '';
    }
    default:
      return '';
  }
}

/**
 * `claude, verified by: npm test, $0.0061, 97% cached, spent $0.42 of $5.00, review: forked`. The
 * run's spend is shown against a cap only: without one, the run's last line sums the reviews and
 * `--json`, the log and `ccc report` carry the spend.
 */
function verdictDetails(e: Extract<SupervisorEvent, { kind: 'verdict' }>, evidence: string): string {
  const spent = e.usage ? [costText(e.usage), `${percent(cacheShare(e.usage))} cached`] : [];
  const capped = e.spent_usd !== undefined && (e.cap_usd !== undefined || e.task_cap_usd !== undefined);
  const run = !capped ? [] : [spendText({ ...e, spent_usd: e.spent_usd!, task_spent_usd: e.task_spent_usd ?? e.spent_usd! })];
  const kind = reviewKindDetails(e.review);
  return [e.checker, ...(evidence ? [evidence] : []), ...spent, ...run, ...(kind ? [kind] : [])].join(', ');
}

/** Lines of feedback shown under its first (a failing command's output tail is what a CI log needs). */
const FEEDBACK_LINES = 15;

/**
 * The feedback's first line, then up to FEEDBACK_LINES more, indented under it; the log has it all.
 * When it is longer, the lines that say what failed (a runner's failure lines: failure-lines.ts) are
 * shown before any other, in their order, so that a CI log shows why a run failed and not a
 * runner's header; the rest of the room goes to the first lines.
 */
function feedbackLines(text: string): string {
  const [first = '', ...rest] = text.trim().split(/\r?\n/);
  const clip = (line: string) => (line.length > 200 ? `${line.slice(0, 200)}…` : line);
  const shown = rest.length > FEEDBACK_LINES ? chosenLines(rest) : rest.map((line, i) => ({ line, i }));
  const body = shown.map(({ line, i }, k) => `${k > 0 && i > shown[k - 1]!.i + 1 ? 'ccc:   │ …\n' : ''}ccc:   │ ${clip(line)}\n`);
  const more = rest.length > shown.length ? `ccc:   │ … ${rest.length - shown.length} more lines in the log\n` : '';
  return `${clip(first)}\n${body.join('')}${more}`;
}

/** FEEDBACK_LINES of `lines`: those that say what failed, then the first others; in their order. */
function chosenLines(lines: string[]): Array<{ line: string; i: number }> {
  const picked = new Set<number>(failureLineIndexes(lines, FEEDBACK_LINES));
  for (let i = 0; i < lines.length && picked.size < FEEDBACK_LINES; i++) picked.add(i);
  return [...picked].sort((a, b) => a - b).map((i) => ({ line: lines[i]!, i }));
}
