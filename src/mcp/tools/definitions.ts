/**
 * The tools of `ccc mcp` as `tools/list` shows them. The Keeper answers `self_test` itself (it
 * must work when the Worker is dead); the Worker runs the others. The Keeper lists the
 * Worker's tools from the Worker's own `ready` message, and from `workerTools()` until the first
 * Worker is ready, so `tools/list` answers even when no Worker ever starts.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TestHooks } from '../worker/test-hooks.js';

export const selfTestTool: Tool = {
  name: 'self_test',
  description:
    'Checks the ccc MCP server (supervisor, worker, web server, database) and repairs what it can: a dead, hung or ' +
    'given-up worker is restarted. Returns a SelfTestResult JSON: health.{supervisor,worker,webServer,database}.status, ' +
    'autoRepair when something was repaired, diagnostics (system, restartHistory) and a one-line summary.',
  inputSchema: { type: 'object', properties: {} },
};

export const supervisorStatusTool: Tool = {
  name: 'supervisor_status',
  description:
    'Lists the running supervised Claude Code sessions (started with `ccc --supervisor`): their iteration, iteration ' +
    'limit, last checker verdict and the tail of their log.',
  inputSchema: { type: 'object', properties: {} },
};

export const collectFeedbackTool: Tool = {
  name: 'collect_feedback',
  description:
    'Asks the human a question and waits for the answer, which they give on a local web page (its URL is in the server ' +
    'log and in self_test) or in the terminal when one is attached. Waits at most timeout_seconds (default 300). ' +
    'If nobody answers, the result is {"answered": false, "reason": "no answer: the user is away"}: that is not an ' +
    'error; do not ask again right away, continue with your best judgement.',
  inputSchema: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'The question, in plain words.', minLength: 1 },
      timeout_seconds: { type: 'number', description: 'How long to wait for an answer (1 to 3600, default 300).', minimum: 1, maximum: 3600 },
    },
    required: ['question'],
  },
};

const testSleepTool: Tool = {
  name: 'test_sleep',
  description: 'TEST HOOK: waits ms milliseconds without blocking, then answers.',
  inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
};

const testBlockTool: Tool = {
  name: 'test_block',
  description: "TEST HOOK: blocks the worker's event loop for ms milliseconds, then answers.",
  inputSchema: { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] },
};

/** The tools a Worker offers. */
export function workerTools(hooks: Pick<TestHooks, 'testTools'>): Tool[] {
  return [supervisorStatusTool, collectFeedbackTool, ...(hooks.testTools ? [testSleepTool, testBlockTool] : [])];
}
