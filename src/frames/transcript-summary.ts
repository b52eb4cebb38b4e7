/**
 * What a checker needs from a session's frames: the user's own prompts and what the agent said
 * last. Works on transcript lines and on stream-json frames alike (same message shapes).
 *
 * Shapes seen on claude 2.1.330 (pinned in test/frames/transcript-real.test.ts):
 * - a typed prompt: `{type:'user', message:{role:'user', content:'<text>'}}` (a string; arrays of
 *   `{type:'text'}` blocks also occur, for instance with pasted images);
 * - a tool result: `{type:'user', message:{content:[{type:'tool_result', …}]}}`;
 * - Stop-hook feedback: `{type:'user', isMeta:true, message:{content:'Stop hook feedback:\n…'}}`
 *   in the transcript, `isSynthetic:true` with a text block on stream-json stdout;
 * - `--json-schema` nagging: a synthetic user message `[structured-output-enforce] …`;
 * - a custom slash command: `<command-message>…<command-name>/x</command-name><command-args>…`
 *   followed by its expansion as an `isMeta` user message; `!cmd` gives `<bash-input>` and
 *   `<bash-stdout>` user messages;
 * - an assistant message is written one content block per line, the lines sharing `message.id`.
 */
import type { Frame } from './frame.js';
import { createGoalTracker, type SessionGoal } from './goal-status.js';
import { LIMIT_RESUME_NOTE } from '../loop/limit-resume-note.js';

export interface TranscriptSummary {
  /** The user's own prompts, oldest first. */
  userPrompts: string[];
  /** The text of the last assistant message that had text (its text blocks, joined). */
  lastAssistantText: string;
  /** Frames seen. */
  frames: number;
  /** How many frames there were up to the last assistant frame (text or not); 0 without one. */
  framesToLastAssistant: number;
  /** The `/goal` the current task carries (goal-status.ts), if any. */
  goal?: SessionGoal;
  /** Stops in a row since the user's last prompt at which a Stop hook sent the agent back. */
  stopsSentBack: number;
}

/** Text that Claude Code writes as a user message but the user did not type as a prompt. */
const NOT_A_PROMPT = [
  /^Stop hook feedback:/,
  /^\[structured-output-enforce\]/,
  /^\[Request interrupted by user/,
  /^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder|bash-input|bash-stdout|bash-stderr|user-prompt-submit-hook)>/,
];

interface MessageFrame extends Frame {
  message?: { id?: unknown; role?: unknown; content?: unknown };
}

/**
 * `/goal <condition>` typed in the TUI is recorded as a command message; it asks for work as a
 * prompt does, so it counts as one. `/goal` alone (the status) and `/goal clear` (or Claude Code's
 * other words for it) ask for none.
 */
const GOAL_COMMAND = /^<command-name>\/goal<\/command-name>[\s\S]*<command-args>([\s\S]*)<\/command-args>/;
const GOAL_CLEAR_WORDS = new Set(['clear', 'stop', 'off', 'reset', 'none', 'cancel']);

/** The prompt the user typed, if this frame is one; undefined for everything else. */
export function userPromptOf(frame: Frame): string | undefined {
  const texts = userTextsOf(frame)?.map((text) => text.trim());
  if (!texts) return undefined;
  const prompts = texts.map((text) => goalPromptOf(text) ?? text).filter((text) => text !== '' && !NOT_A_PROMPT.some((pattern) => pattern.test(text)));
  return prompts.length > 0 ? prompts.join('\n') : undefined;
}

function userTextsOf(frame: Frame): string[] | undefined {
  const { message } = frame as MessageFrame;
  if (frame.type !== 'user' || !message || frame.isMeta === true || frame.isSynthetic === true) return undefined;
  if (frame.isSidechain === true || frame.isCompactSummary === true) return undefined;
  const content = message.content;
  const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  if (blocks.some((block) => isBlock(block) && block.type === 'tool_result')) return undefined;
  return blocks
    .filter((block): block is { type: string; text: string } => isBlock(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text);
}

function goalPromptOf(text: string): string | undefined {
  const args = GOAL_COMMAND.exec(text)?.[1]?.trim();
  return args && !GOAL_CLEAR_WORDS.has(args.toLowerCase()) ? `/goal ${args}` : undefined;
}

/** Claude Code's message to the agent when a Stop hook sends it back (the transcript's `isMeta` user line). */
export function isStopHookFeedback(frame: Frame): boolean {
  const content = (frame as MessageFrame).message?.content;
  const text = typeof content === 'string' ? content : Array.isArray(content) && isBlock(content[0]) ? content[0].text : undefined;
  return frame.type === 'user' && typeof text === 'string' && text.startsWith('Stop hook feedback:');
}

/** The text blocks of an assistant frame with the message id they belong to. */
export function assistantTextOf(frame: Frame): { messageId: string | undefined; text: string } | undefined {
  const { message } = frame as MessageFrame;
  if (frame.type !== 'assistant' || !message || frame.isSidechain === true || !Array.isArray(message.content)) return undefined;
  const text = message.content
    .filter((block): block is { type: string; text: string } => isBlock(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text)
    .join('\n');
  if (text.trim() === '') return undefined;
  return { messageId: typeof message.id === 'string' ? message.id : undefined, text };
}

function isBlock(value: unknown): value is { type?: unknown; text?: unknown } {
  return typeof value === 'object' && value !== null;
}

/**
 * Everything the fold carries from one frame to the next, as plain JSON: a reading of a growing
 * transcript keeps it where it stopped and goes on from there (transcript-reader.ts), in this
 * process or, through the session state, in the next hook's.
 */
export interface SummaryState {
  userPrompts: string[];
  frames: number;
  framesToLastAssistant: number;
  lastText: string;
  lastMessageId?: string;
  goal?: SessionGoal;
  stopsSentBack: number;
  /** A Stop hook sent the agent back at the stop whose summary line has not come yet. */
  sentBack: boolean;
}

export interface TranscriptFold {
  add(frame: Frame): void;
  result(): TranscriptSummary;
  /** A copy of the fold's state: `createTranscriptSummary(state)` goes on from here. */
  state(): SummaryState;
}

/** Folds frames into a TranscriptSummary without keeping the frames; from `from` when given. */
export function createTranscriptSummary(from?: SummaryState): TranscriptFold {
  const userPrompts: string[] = from ? [...from.userPrompts] : [];
  let frames = from?.frames ?? 0;
  let lastText = from?.lastText ?? '';
  let lastMessageId = from?.lastMessageId;
  let framesToLastAssistant = from?.framesToLastAssistant ?? 0;
  const goal = createGoalTracker(from?.goal);
  let stopsSentBack = from?.stopsSentBack ?? 0;
  let sentBack = from?.sentBack ?? false;
  return {
    add(frame) {
      frames += 1;
      goal.add(frame);
      if (frame.type === 'assistant') {
        framesToLastAssistant = frames;
        goal.assistant();
      }
      const prompt = userPromptOf(frame);
      if (prompt === LIMIT_RESUME_NOTE) {
        // ccc's note after a wait on the model's limit goes on with the task: no new task, yet a turn claude counts afresh.
        stopsSentBack = 0;
      } else if (prompt !== undefined) {
        userPrompts.push(prompt);
        goal.prompt();
        stopsSentBack = 0;
      }
      // One stop's hooks may send several messages; its summary line closes the stop.
      if (isStopHookFeedback(frame)) sentBack = true;
      if (frame.type === 'system' && frame.subtype === 'stop_hook_summary') {
        if (sentBack) stopsSentBack += 1;
        sentBack = false;
      }
      const assistant = assistantTextOf(frame);
      if (!assistant) return;
      // Blocks of one message arrive as separate lines: join them; a new message replaces.
      const sameMessage = assistant.messageId !== undefined && assistant.messageId === lastMessageId;
      lastText = sameMessage ? `${lastText}\n${assistant.text}` : assistant.text;
      lastMessageId = assistant.messageId;
    },
    result: () => {
      const current = goal.result();
      return {
        userPrompts: [...userPrompts],
        lastAssistantText: lastText,
        frames,
        framesToLastAssistant,
        stopsSentBack,
        ...(current ? { goal: current } : {}),
      };
    },
    state: () => {
      const current = goal.result();
      return {
        userPrompts: [...userPrompts],
        frames,
        framesToLastAssistant,
        lastText,
        ...(lastMessageId !== undefined ? { lastMessageId } : {}),
        ...(current ? { goal: current } : {}),
        stopsSentBack,
        sentBack,
      };
    },
  };
}
