/**
 * Tool calls claude refused because the user's permission settings did not allow them. In print
 * mode nobody can approve a call, so without `--allowedTools` or a permission mode every edit is
 * refused: the result frame lists those calls in `permission_denials`. In the TUI a call a
 * `permissions.deny` rule matches is refused without asking: its transcript line carries
 * `permissionDecision: {decision: "reject", source: "config", ruleSource}` (docs/design/claude-facts.md).
 * Unnamed, either looks like an agent making no progress.
 */
import type { Frame } from '../frames/frame.js';
import { isStopHookFeedback, userPromptOf } from '../frames/transcript-summary.js';
import type { StopDecision } from './review-stop.js';

/** The distinct tool names of a result frame's `permission_denials`, in order. */
export function deniedTools(frame: Frame): string[] {
  if (frame.type !== 'result' || !Array.isArray(frame.permission_denials)) return [];
  const names = frame.permission_denials.map((d: unknown) => (d && typeof d === 'object' ? (d as { tool_name?: unknown }).tool_name : undefined));
  return distinct(names);
}

/** What the settings refused in one agent turn: the tools, and the settings sources of the deny rules that refused them. */
export interface TurnDenials {
  tools: string[];
  /** claude's names for where the rules are (`flagSettings`, `projectSettings`, …); empty when no rule is named. */
  ruleSources: string[];
}

/**
 * The calls the permission settings refused in the turn that ended at this stop: the transcript
 * frames after the user's last prompt or the last Stop hook feedback (the turn under review). A
 * call the user refused at claude's own prompt is the user's choice and is not counted.
 */
export function deniedInTurn(frames: readonly Frame[]): TurnDenials {
  const names = new Map<string, string>();
  let tools: unknown[] = [];
  let sources: unknown[] = [];
  for (const frame of frames) {
    if (userPromptOf(frame) !== undefined || isStopHookFeedback(frame)) [tools, sources] = [[], []];
    for (const block of contentBlocks(frame)) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') names.set(block.id, block.name);
      if (block.type !== 'tool_result' || frame.type !== 'user') continue;
      const decision = frame.permissionDecision as { decision?: unknown; source?: unknown; ruleSource?: unknown } | undefined;
      if (decision?.decision !== 'reject' || decision.source !== 'config') continue;
      tools.push(typeof block.tool_use_id === 'string' ? names.get(block.tool_use_id) : undefined);
      sources.push(decision.ruleSource);
    }
  }
  return { tools: distinct(tools), ruleSources: distinct(sources) };
}

function contentBlocks(frame: Frame): Array<Record<string, unknown>> {
  const content = (frame.message as { content?: unknown } | undefined)?.content;
  return Array.isArray(content) ? content.filter((b): b is Record<string, unknown> => typeof b === 'object' && b !== null) : [];
}

function distinct(values: readonly unknown[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
}

/** Where claude's `ruleSource` names are, for the user. */
const RULE_PLACES: Record<string, string> = {
  flagSettings: 'the --settings claude was started with',
  projectSettings: '.claude/settings.json',
  localSettings: '.claude/settings.local.json',
  userSettings: '~/.claude/settings.json',
  policySettings: 'the managed settings',
  cliArg: '--disallowedTools',
};

/** How the user grants the refused calls: headless, a grant after `--`; interactive, the deny rule that refused them. */
function grant(denials: TurnDenials | undefined): string {
  if (!denials) return 'Grant them after `--`: `-- --allowedTools "Edit Write Bash(npm test)"` or `-- --permission-mode acceptEdits`';
  const places = denials.ruleSources.map((s) => RULE_PLACES[s] ?? s);
  return (
    `A permissions.deny rule${places.length ? ` in ${places.join(', ')}` : ''} matches them, and a deny rule wins over every allow rule and permission mode: ` +
    'remove or narrow it to let the agent make them'
  );
}

/** The line for the user and the log; `interactive` carries the turn's rule sources (the TUI). */
function deniedToolsMessage(tools: readonly string[], interactive?: TurnDenials): string {
  return `claude refused the agent's ${tools.join(', ')} calls: ${why(interactive)}`;
}

function why(interactive: TurnDenials | undefined): string {
  const cause = interactive ? 'the permission settings deny them' : 'the permission settings do not allow them and nobody can approve a call headless';
  return `${cause}. ${grant(interactive)}`;
}

/** Said to the agent with the feedback: the refusal was the permission settings, not the reviewer. */
function deniedToolsNote(tools: readonly string[]): string {
  return (
    `Note: your ${tools.join(', ')} calls were denied by the user's permission settings (nobody can approve them in this run). ` +
    'Do the work another way that is allowed, or say plainly that you cannot do it without that permission.'
  );
}

/**
 * After this many agent turns in a row with denied calls, each answered "not complete", the run
 * stops with reason `permission-denied`: the agent cannot do the work without the grant, and more
 * rounds would only pay for the same refusal (the no-progress breaker would say "no progress").
 */
export const DENIED_TURNS_LIMIT = 2;

function deniedStopMessage(tools: readonly string[], turns: number, interactive?: TurnDenials): string {
  return `the agent's ${tools.join(', ')} calls were denied in ${turns} turns in a row, so it cannot finish the task; ${why(interactive)}`;
}

/**
 * The one rule of both modes: counts agent turns in a row with denied calls, and turns a stop's
 * decision into what the denials call for. A "not complete" (or the no-progress breaker) after
 * DENIED_TURNS_LIMIT such turns ends the run with reason `permission-denied`; a block before that
 * carries the note to the agent.
 */
export class DeniedTurns {
  private turns = 0;
  private iteration: number | undefined;
  /** The last turn's denied tools. */
  tools: string[] = [];
  private denials: TurnDenials | undefined;

  /**
   * A finished agent turn's denials; `interactive` when they come from the transcript (the TUI's
   * deny rules). `iteration` is the review's: one no higher than the last recorded belongs to a
   * new task the user typed, which counts afresh as the iteration count does (the same rule as
   * the no-progress breaker).
   */
  record(tools: readonly string[], interactive?: TurnDenials, iteration?: number): void {
    const newTask = iteration !== undefined && this.iteration !== undefined && iteration <= this.iteration;
    if (iteration !== undefined) this.iteration = iteration;
    this.tools = [...tools];
    this.denials = interactive;
    this.turns = tools.length ? (newTask ? 0 : this.turns) + 1 : 0;
  }

  /** The line naming the last turn's denials, or undefined without any. */
  message(): string | undefined {
    return this.tools.length ? deniedToolsMessage(this.tools, this.denials) : undefined;
  }

  apply(decision: StopDecision): StopDecision {
    if (!this.tools.length) return decision;
    const stuck = decision.action === 'block' || (decision.action === 'allow' && decision.reason === 'no-progress');
    if (stuck && this.turns >= DENIED_TURNS_LIMIT) {
      const message = deniedStopMessage(this.tools, this.turns, this.denials);
      return { action: 'allow', reason: 'permission-denied', message, ...(decision.iteration === undefined ? {} : { iteration: decision.iteration }) };
    }
    return decision.action === 'block' ? { ...decision, feedback: `${decision.feedback}\n\n${deniedToolsNote(this.tools)}` } : decision;
  }
}
