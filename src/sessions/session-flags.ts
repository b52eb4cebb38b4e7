/**
 * The one rule for which session a supervised run is in, for both modes.
 *
 * claude chooses the first session from the user's flags: `--continue`, `--resume [id|title]`,
 * `--fork-session`, `--session-id`, `--from-pr`, `--teleport`, `--worktree`, a `--name` for a new
 * one, and a positional prompt. Those words belong to the first agent turn only. Every later turn
 * resumes exactly the session the agent is in (its id taken from claude's own frames), so that a
 * `--continue` cannot pick a newer session than the agent's, a `--session-id` is not created twice,
 * and a `--fork-session` does not fork the original again and lose what the agent did since.
 *
 * Flags that take the session away from this process (it runs in the background, in the cloud, in
 * another app or terminal, or is never written to disk, so there is nothing to resume or fork) are
 * refused before claude starts: ccc could not review such a session, and a run that cannot be
 * reviewed must not look supervised.
 */
import { CccError } from '../errors.js';
import { readClaudeArgs, type ClaudeWord } from '../claude/claude-options.js';
import { newestSessionId } from '../frames/transcript.js';

export type SupervisedMode = 'headless' | 'interactive';

/** Options that choose or name the first session: given to the first agent turn only. */
const FIRST_TURN_ONLY = new Set(['--continue', '--resume', '--fork-session', '--session-id', '--from-pr', '--teleport', '--worktree', '--name', '--file']);

/** Options that choose a session other than a new one (ccc must not add its own `--session-id`). */
const CHOOSES_SESSION = new Set(['--continue', '--resume', '--fork-session', '--session-id', '--from-pr', '--teleport']);

/** Options under which the agent's session cannot be supervised, with the reason. */
const UNSUPERVISABLE: Record<string, string> = {
  '--no-session-persistence': 'the session is not saved, so it can neither be continued with the feedback nor forked for a review',
  '--bg': 'the session runs in the background, where ccc sees none of its stops',
  '--cloud': 'the session runs in the cloud, where ccc sees none of its stops',
  '--environment': 'the session runs in a cloud environment, where ccc sees none of its stops',
  '--desktop': 'the session opens in the Claude Desktop app, where ccc sees none of its stops',
  '--tmux': 'the session runs in a tmux session of its own, outside the terminal ccc proxies',
};

/** In headless mode ccc speaks claude's stream-json itself; these would change what it reads or writes. */
const HEADLESS_OWNED: Record<string, string> = {
  '--print': 'ccc takes the task from its own -p; put -p "<task>" before --',
  '--output-format': "ccc reads claude's stream-json itself; use ccc's --json for machine-readable output",
  '--input-format': "ccc writes each agent turn's message itself",
  '--replay-user-messages': "ccc writes each agent turn's message itself",
};

export interface SessionPlan {
  /** The claude arguments of the first agent turn (interactive: of the launch), as the user gave them. */
  firstTurn: string[];
  /** The arguments of every later turn, without the session-choosing words; add `--resume <agent's id>`. */
  laterTurns: string[];
  /** True when the user's flags choose the session (ccc must not add `--session-id`). */
  choosesSession: boolean;
  /** The session the launch continues in place, when the flags name it by id (`--resume <uuid>` without `--fork-session`). */
  resumedId?: string;
  /** The id `--session-id` gives the first turn's session. */
  namedId?: string;
  /** `--continue` without `--fork-session`: the first turn continues the project's newest session in place. */
  continuesNewest: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reads the user's claude arguments; throws a usage error (exit 2) for a flag that cannot be supervised. */
export function sessionPlan(claudeArgs: readonly string[], mode: SupervisedMode): SessionPlan {
  const words = readClaudeArgs(claudeArgs);
  for (const word of words) {
    if (word.kind !== 'option') continue;
    const refused = UNSUPERVISABLE[word.canonical] ?? (mode === 'headless' || word.canonical === '--print' ? HEADLESS_OWNED[word.canonical] : undefined);
    if (refused) {
      throw new CccError('USAGE', `claude's ${word.name} cannot be used under supervision: ${refused}. See \`ccc --supervisor --help\`.`, {
        data: { option: word.name },
      });
    }
  }
  const option = (w: ClaudeWord): w is Extract<ClaudeWord, { kind: 'option' }> => w.kind === 'option';
  const firstOnly = (w: ClaudeWord) => (option(w) ? FIRST_TURN_ONLY.has(w.canonical) : true);
  const forks = words.some((w) => option(w) && w.canonical === '--fork-session');
  const resume = words.find((w): w is Extract<ClaudeWord, { kind: 'option' }> => option(w) && w.canonical === '--resume');
  const resumedValue = resume?.values[0];
  const namedValue = words.find((w): w is Extract<ClaudeWord, { kind: 'option' }> => option(w) && w.canonical === '--session-id')?.values[0];
  return {
    firstTurn: [...claudeArgs],
    laterTurns: words.filter((w) => !firstOnly(w)).flatMap((w) => w.words),
    choosesSession: words.some((w) => option(w) && CHOOSES_SESSION.has(w.canonical)),
    ...(!forks && resumedValue && UUID.test(resumedValue) ? { resumedId: resumedValue } : {}),
    ...(namedValue && UUID.test(namedValue) ? { namedId: namedValue } : {}),
    continuesNewest: !forks && words.some((w) => option(w) && w.canonical === '--continue'),
  };
}

/** The claude arguments of an agent turn: the first as given, every later one resuming the agent's own session. */
export function agentTurnArgs(plan: SessionPlan, agentSessionId: string | undefined): string[] {
  return agentSessionId === undefined ? plan.firstTurn : ['--resume', agentSessionId, ...plan.laterTurns];
}

/**
 * The session the first agent turn runs in, when it can be known before claude starts: the id of
 * `--resume <uuid>` or `--session-id <uuid>`, or the newest session for `--continue` (the TUI's
 * `--continue` skips sessions made in print mode: docs/design/claude-facts.md, "Sessions"). A fork's or a
 * new session's id is claude's to choose (ccc claims it once claude names it).
 */
export function launchSessionId(plan: SessionPlan, env: NodeJS.ProcessEnv, cwd: string, mode: SupervisedMode = 'headless'): string | undefined {
  return plan.namedId ?? plan.resumedId ?? (plan.continuesNewest ? newestSessionId(env, cwd, { interactive: mode === 'interactive' }) : undefined);
}

/**
 * A plan whose first turn starts a new session under an id ccc chose (`--session-id`), so that ccc
 * can claim the session before claude starts: otherwise its id is known only after the first turn,
 * and a `--continue` started meanwhile could take it. Plans whose flags choose the session are kept.
 */
export function withOwnSessionId(plan: SessionPlan, id: string): SessionPlan {
  if (plan.choosesSession) return plan;
  return { ...plan, firstTurn: ['--session-id', id, ...plan.firstTurn], choosesSession: true, namedId: id };
}
