/** The session rule of supervised runs, word by word (the real claude's side: session-flags-headless.test.ts). */
import { describe, expect, it } from 'vitest';
import { agentTurnArgs, sessionPlan } from '../../src/sessions/session-flags.js';

const ID = '3f2b8c1e-5d4a-4e6f-8a9b-0c1d2e3f4a5b';

describe('the session plan', () => {
  it.each([
    [['--continue', '--model', 'opus'], ['--model', 'opus'], true],
    [['-c', '--add-dir', 'a', 'b'], ['--add-dir', 'a', 'b'], true],
    [['--resume', ID, '--fork-session', '--effort', 'high'], ['--effort', 'high'], true],
    [[`--resume=${ID}`], [], true],
    [['-r', 'my title', '--verbose'], ['--verbose'], true],
    [['--session-id', ID, '--permission-mode', 'acceptEdits'], ['--permission-mode', 'acceptEdits'], true],
    [['-cd', 'api'], ['-d', 'api'], true],
    [['--from-pr', '12'], [], true],
    [['--teleport'], [], true],
    [['-w', 'wt1', '-n', 'work', 'fix it'], [], false],
    [['--append-system-prompt', '-c', '--model', 'opus'], ['--append-system-prompt', '-c', '--model', 'opus'], false],
  ])('%j: later turns get %j; chooses a session: %s', (args, later, chooses) => {
    const plan = sessionPlan(args, 'headless');
    expect(plan.firstTurn).toEqual(args);
    expect(plan.laterTurns).toEqual(later);
    expect(plan.choosesSession).toBe(chooses);
    expect(agentTurnArgs(plan, undefined)).toEqual(args);
    expect(agentTurnArgs(plan, 'agent-1')).toEqual(['--resume', 'agent-1', ...later]);
  });

  it('knows the session a launch continues in place: --resume <uuid>, not a title and not a fork', () => {
    expect(sessionPlan(['--resume', ID], 'interactive').resumedId).toBe(ID);
    expect(sessionPlan([`-r${ID}`], 'interactive').resumedId).toBe(ID);
    expect(sessionPlan(['--resume', 'title'], 'interactive').resumedId).toBeUndefined();
    expect(sessionPlan(['--resume', ID, '--fork-session'], 'interactive').resumedId).toBeUndefined();
    expect(sessionPlan(['--continue'], 'interactive').resumedId).toBeUndefined();
  });

  it.each([['--no-session-persistence'], ['--bg'], ['--background'], ['--cloud'], ['--desktop'], ['--environment', 'env_1'], ['--tmux']])(
    'refuses %s in both modes, naming it',
    (...args) => {
      for (const mode of ['headless', 'interactive'] as const)
        expect(() => sessionPlan(args, mode)).toThrow(new RegExp(`claude's ${args[0]} cannot be used under supervision`));
    },
  );

  it('refuses the options ccc speaks itself in headless mode only; -p after -- in both', () => {
    for (const args of [['--output-format', 'json'], ['--input-format', 'stream-json'], ['--replay-user-messages']]) {
      expect(() => sessionPlan(args, 'headless')).toThrow(/cannot be used under supervision/);
      expect(() => sessionPlan(args, 'interactive')).not.toThrow();
    }
    expect(() => sessionPlan(['-p'], 'interactive')).toThrow(/put -p "<task>" before --/);
  });
});
