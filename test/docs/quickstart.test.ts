/**
 * The README's quickstart, run as written on a fresh project: `ccc init`, an edit of SUPERVISOR.md,
 * then the headless command the README gives, word for word, with the real claude against the
 * scripted model server. The scripted agent writes the file with the Write tool the command grants;
 * the rule `ccc init` wrote runs the project's `npm test`, then the reviewer runs it too, and the run
 * ends verified.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import { repoRoot, type ClaudeWorld } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';
import { isToolResultTurn } from '../support/model-server.js';
import { reviewStep } from '../support/review-script.js';

/** The lines of the README's quickstart code blocks that run ccc, as argument lists (double quotes group). */
function quickstartCommands(): string[][] {
  const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quickstart on your own project\n');
  expect(start).toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  const lines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
  return lines
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter((l) => l.startsWith('ccc '))
    .map((l) => [...l.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!).slice(1));
}

describe("the README's quickstart", () => {
  it('ccc init, SUPERVISOR.md edited, then the headless command as written: the work done and verified', async ({ rig }) => {
    const commands = quickstartCommands();
    expect(commands.map((c) => c.slice(0, 2))).toEqual([['init'], ['--supervisor'], ['--supervisor', '-p']]);
    const headless = commands[2]!;

    // The scripted agent writes into the world, which is made after its server.
    let world: ClaudeWorld | undefined;
    const server = await rig.server((request) => {
      const done = fs.existsSync(path.join(world!.cwd, 'signup.js'));
      if (request.kind === 'review')
        return reviewStep(request) === 0
          ? { toolUse: { name: 'Bash', input: { command: 'npm test', description: 'Run the tests' } } }
          : {
              verdict: done
                ? { completed: true, feedback: 'signup.js validates its input; npm test passes.' }
                : { completed: false, feedback: 'signup.js is missing.' },
            };
      if (isToolResultTurn(request)) return { text: 'Added the validation in signup.js.' };
      return {
        toolUse: { name: 'Write', input: { file_path: path.join(world!.cwd, 'signup.js'), content: 'export const validate = (s) => s.length > 0;\n' } },
      };
    });
    // No SUPERVISOR.md: `ccc init` writes it, as on a fresh project.
    world = rig.world({ server });
    fs.writeFileSync(path.join(world.cwd, 'package.json'), JSON.stringify({ name: 'my-project', private: true, scripts: { test: 'node --test' } }));
    fs.mkdirSync(path.join(world.cwd, 'test'));
    fs.writeFileSync(
      path.join(world.cwd, 'test', 'signup.test.js'),
      "const { test } = require('node:test');\ntest('signup.js exists', () => require('fs').accessSync('signup.js'));\n",
    );

    const init = await runCcc(world, commands[0]!);
    expect(init.code, init.stderr).toBe(0);
    expect(fs.existsSync(path.join(world.cwd, 'ccc.config.ts'))).toBe(true);
    fs.appendFileSync(path.join(world.cwd, 'SUPERVISOR.md'), '\nDone means: the signup form validates its input and `npm test` passes.\n');

    const run = await runCcc(world, headless, { timeoutMs: 240_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(fs.readFileSync(path.join(world.cwd, 'signup.js'), 'utf8')).toContain('validate');
    expect(run.stderr).toMatch(/complete \(.*verified by: npm test \(1 test\)/);
    expect(server.byKind('review')[0]!.lastUserText).toContain('Done means: the signup form validates its input');
  }, 300_000);
});
