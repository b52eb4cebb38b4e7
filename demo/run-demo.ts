/**
 * An offline demo of a supervised session: the real `claude` (from node_modules) runs under
 * `ccc --supervisor` against the scripted model server of the test suite, in a throw-away HOME and
 * project. The scripted agent first claims it is done without doing anything; the scripted
 * reviewer runs the project's tests (`npm test`, which checks hello.txt), sees them fail and sends
 * feedback; the agent then really creates the file with a Bash tool call; the reviewer runs the
 * tests again and confirms: the verdict shows it was verified by `npm test`.
 *
 *   npm run demo                  headless (`ccc --supervisor -p …`), works without a terminal
 *   npm run demo -- --interactive the Claude Code TUI through the proxy, the task its first prompt (then /exit)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cccBin, makeClaudeWorld } from '../test/support/claude-env.js';
import { isToolResultTurn, startModelServer, type MessagesBody, type Reply, type ScriptedUsage } from '../test/support/model-server.js';
import { canonicalRequest, sharedPrefixLength } from '../test/support/prefix-share.js';
import { reviewStep } from '../test/support/review-script.js';

const interactive = process.argv.includes('--interactive');
let project = '';
/**
 * The usage a prompt cache would report: the longest prefix this request shares with an earlier one
 * is read from the cache, the rest written to it (about four characters a token). The real service
 * caches at the breakpoints claude marks; a prefix is what decides there too.
 */
const seen: string[] = [];
function cachedUsage(body: MessagesBody): ScriptedUsage {
  const request = canonicalRequest(body);
  const shared = Math.max(0, ...seen.map((earlier) => sharedPrefixLength(earlier, request)));
  seen.push(request);
  return {
    input_tokens: 4,
    cache_read_input_tokens: Math.round(shared / 4),
    cache_creation_input_tokens: Math.round((request.length - shared) / 4),
    output_tokens: 60,
  };
}

const server = await startModelServer((request) => ({ ...answer(request), usage: cachedUsage(request.body) }));

function answer(request: Parameters<typeof isToolResultTurn>[0]): Reply {
  const done = fs.existsSync(path.join(project, 'hello.txt'));
  if (request.kind === 'review') {
    if (reviewStep(request) === 0)
      return { text: 'Running the tests first.', toolUse: { name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } } };
    return done
      ? { verdict: { completed: true, feedback: 'hello.txt exists and says hello.' } }
      : {
          verdict: {
            completed: false,
            feedback: 'You said it is done, but hello.txt does not exist in the project. Create it with the text "hello", then run `npm test`.',
          },
        };
  }
  if (isToolResultTurn(request)) return { text: 'Created hello.txt; `cat hello.txt` prints "hello".' };
  if (request.lastUserText.includes('hello.txt does not exist')) {
    return {
      text: 'You are right, creating it now.',
      toolUse: { name: 'Bash', input: { command: 'echo hello > hello.txt && cat hello.txt', description: 'Create hello.txt' } },
    };
  }
  return { text: 'Done! hello.txt is created.' };
}
const world = makeClaudeWorld({ modelUrl: server.url });
project = world.cwd;
fs.writeFileSync(path.join(project, 'SUPERVISOR.md'), '# Review\nCheck the work in the project directory yourself; do not trust claims.\n');
const check =
  "const { test } = require('node:test');\nconst assert = require('node:assert');\nconst fs = require('fs');\n" +
  "test('hello.txt says hello', () => assert.match(fs.existsSync('hello.txt') ? fs.readFileSync('hello.txt', 'utf8') : '', /hello/, 'FAIL: hello.txt must say hello'));\n";
fs.mkdirSync(path.join(project, 'test'));
fs.writeFileSync(path.join(project, 'test', 'hello.test.js'), check);
fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'demo', private: true, scripts: { test: 'node --test' } }, null, 2));

const task = 'Create hello.txt containing the word hello.';
// Interactive, the task is claude's first prompt (a positional word, before the variadic
// --allowedTools): the TUI takes the whole screen the moment it starts, so a "type this" line
// printed before it is wiped before anyone can read it. What to do is said before the TUI starts,
// and it waits for Enter on a terminal.
const args = interactive ? ['--supervisor', '--', task, '--allowedTools', 'Bash'] : ['--supervisor', '-p', task, '--', '--allowedTools', 'Bash'];
process.stderr.write(`demo: project ${project}\ndemo: ccc ${args.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}\n`);
if (interactive) readyToStart();
const child = spawn(process.execPath, [cccBin, ...args], { cwd: project, env: world.env, stdio: 'inherit' });
const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));

const reviews = server.byKind('review').length;
const turns = server.byKind('agent').length;
process.stderr.write(
  `\ndemo: ccc exited ${code}; the model server saw ${turns} agent requests and ${reviews} review requests; hello.txt ${fs.existsSync(path.join(project, 'hello.txt')) ? 'exists' : 'is missing'}.\n`,
);
const logDir = path.join(world.claudeDir, 'ccc');
const log = fs.readdirSync(logDir).find((f) => f.startsWith('supervisor-') && f.endsWith('.log'));
if (log) process.stderr.write(`demo: the supervisor log:\n${fs.readFileSync(path.join(logDir, log), 'utf8')}`);
await server.close();
world.cleanup();
process.exit(code);

/** Says what the interactive demo does and how to leave it, then waits for Enter when a person is at the terminal. */
function readyToStart(): void {
  process.stderr.write(
    `demo: Claude Code starts with the task "${task}" as its first prompt: watch the reviewer catch the agent's false "done".\n` +
      'demo: when ccc says "review 2 (claude): complete", type /exit and press Enter to leave.\n',
  );
  if (!process.stdin.isTTY) return;
  process.stderr.write('demo: press Enter to start.');
  // A blocking read of the terminal on a descriptor of its own: reading through process.stdin
  // would make Node switch the terminal, which ccc inherits next, to non-blocking mode.
  const tty = fs.openSync('/dev/tty', 'r');
  try {
    fs.readSync(tty, Buffer.alloc(256));
  } finally {
    fs.closeSync(tty);
  }
}
