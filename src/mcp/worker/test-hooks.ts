/**
 * TEST HOOKS. Environment variables that only the test suite sets, to make a Worker misbehave on
 * purpose so the Keeper's repairs can be checked against a real process. They are read here
 * and nowhere else; nothing in normal use sets them.
 *
 *   CCC_MCP_TEST_CRASH_AT_START  the Worker exits with code 70 before saying `ready`
 *   CCC_MCP_TEST_IGNORE_PINGS    the Worker never answers health pings
 *   CCC_MCP_TEST_TOOLS           the Worker offers two extra tools: `test_sleep {ms}` (waits
 *                                without blocking) and `test_block {ms}` (blocks its event loop,
 *                                like a CPU-bound tool: pings go unanswered while it runs)
 *
 * A value of `1`/`true`/`all` applies to every Worker; `gen:1,3` only to those generations (the
 * first Worker is generation 1, each restart adds one), so a test can break only the first one.
 */
export interface TestHooks {
  crashAtStart: boolean;
  ignorePings: boolean;
  testTools: boolean;
}

export function readTestHooks(env: NodeJS.ProcessEnv, generation: number): TestHooks {
  return {
    crashAtStart: applies(env.CCC_MCP_TEST_CRASH_AT_START, generation),
    ignorePings: applies(env.CCC_MCP_TEST_IGNORE_PINGS, generation),
    testTools: applies(env.CCC_MCP_TEST_TOOLS, generation),
  };
}

function applies(value: string | undefined, generation: number): boolean {
  const text = value?.trim().toLowerCase();
  if (!text || text === '0' || text === 'false') return false;
  if (text.startsWith('gen:')) {
    return text
      .slice(4)
      .split(',')
      .map((n) => Number(n.trim()))
      .includes(generation);
  }
  return true;
}
