#!/usr/bin/env node
// `npm run test:setup`: installs the system tools the test suite needs beyond `npm ci`
// (scripts/test-tools.mjs), with apt-get where it is (sudo when not root), and says what to
// install elsewhere. The tools CCC_TEST_SKIP names are left out. Exit 0 when every tool is there
// afterwards, 1 with the missing ones named otherwise. .ci/run runs it before `npm ci`.
import { spawnSync } from 'node:child_process';
import { findTool, installLine, skippedTools, thisMachine, TOOLS } from './test-tools.mjs';

const say = (line) => console.error(`test:setup: ${line}`);
let skipped;
try {
  skipped = skippedTools();
} catch (error) {
  say(error.message);
  process.exit(2);
}
const wanted = TOOLS.filter((tool) => !skipped.includes(tool.name));
const missing = () => wanted.filter((tool) => !findTool(tool));

if (skipped.length > 0) say(`not installing ${skipped.join(', ')} (CCC_TEST_SKIP): the tests that need them are skipped`);
let absent = missing();
if (absent.length === 0) {
  say(`every tool the suite needs is here (${wanted.map((tool) => tool.name).join(', ')})`);
  process.exit(0);
}
say(`missing: ${absent.map((tool) => `${tool.name} (${tool.why})`).join('; ')}`);

const machine = thisMachine();
if (machine.apt) {
  const sudo = machine.root ? [] : ['sudo'];
  if (!machine.root && spawnSync('sh', ['-c', 'command -v sudo'], { stdio: 'ignore' }).status !== 0) {
    say(`not root and no sudo: as root, run: ${installLine(absent, { ...machine, root: true })}`);
    process.exit(1);
  }
  const packages = [...new Set(absent.flatMap((tool) => tool.apt))];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const run = (args) => {
    const [command, ...rest] = [...sudo, ...args];
    say([command, ...rest].join(' '));
    return spawnSync(command, rest, { stdio: 'inherit', env }).status === 0;
  };
  if (!run(['apt-get', 'update', '-qq']) || !run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...packages])) {
    say(`apt-get failed; the line to run: ${installLine(absent, machine)}`);
    process.exit(1);
  }
} else if (process.platform !== 'linux') {
  // The suite reads /proc, runs real ptys under Linux job control and makes mount namespaces: on
  // macOS it cannot pass whole, and Homebrew's packages alone do not make it.
  say(`the suite runs on Linux (it reads /proc and uses mount namespaces); on ${process.platform}, run it in a Debian container or VM.`);
  say(`what Homebrew can give here: ${installLine(absent, machine)}`);
  process.exit(1);
} else {
  say(`no apt-get on this machine: ${installLine(absent, machine)}`);
  process.exit(1);
}

absent = missing();
if (absent.length > 0) {
  say(`still missing after the install: ${absent.map((tool) => tool.name).join(', ')}`);
  process.exit(1);
}
say('every tool the suite needs is here now');
