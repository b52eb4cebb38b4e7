// The modules each start-up path loads before the agent's spawn (or, for paths that spawn no
// agent, in the whole run): the measurement behind docs/design/architecture.md, "Start-up". Runs the
// built CLI (npm run build first) with bench/startup-modules/preload.mjs, offline (claude gets an
// unreachable API), in a private HOME. Interactive paths run under script(1) for a terminal.
// Usage: node bench/startup-modules.mjs   (prints one list per path)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-startup-modules-'));
const home = path.join(work, 'home');
const project = path.join(work, 'project');
fs.mkdirSync(home);
fs.mkdirSync(project);
fs.writeFileSync(path.join(project, 'SUPERVISOR.md'), '# Review the work\n');
const transcript = path.join(work, 'transcript.jsonl');
fs.writeFileSync(transcript, '');
const stop = JSON.stringify({
  session_id: '3f1b7b2e-2d6a-4c55-9a43-1f6a3d1c2b11',
  transcript_path: transcript,
  cwd: project,
  hook_event_name: 'Stop',
  stop_hook_active: false,
});
const agent = /^SPAWN (node-pty|spawn \[".*(ccc-relay|ccc-lifeline)")/;

const paths = [
  { name: 'interactive, native relay', args: ['--supervisor'], tty: true, until: /ccc-relay/ },
  { name: 'interactive, Node proxy (CCC_RELAY=off)', args: ['--supervisor'], tty: true, env: { CCC_RELAY: 'off' }, until: /^SPAWN node-pty/ },
  { name: 'headless (-p)', args: ['--supervisor', '-p', 'say hi'], until: /ccc-lifeline.*"-p"/ },
  {
    name: 'Stop hook --proxy (whole run)',
    args: ['supervisor-hook', '--proxy'],
    stdin: stop,
    env: { CCC_HOOK_SOCKET: path.join(work, 'none.sock'), CCC_HOOK_TOKEN: 't' },
  },
  { name: 'standalone Stop hook, up to the reviewer', args: ['supervisor-hook'], stdin: stop, until: /ccc-lifeline/ },
  { name: 'ccc --version (whole run)', args: ['--version'] },
  { name: 'ccc --help (whole run)', args: ['--help'] },
  { name: 'ccc config (whole run)', args: ['config'] },
];

for (const run of paths) {
  const log = path.join(work, 'modules.log');
  fs.rmSync(log, { force: true });
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'xterm-256color',
    STARTUP_MODULES_LOG: log,
    CCC_CLAUDE: path.join(root, 'node_modules', '.bin', 'claude'),
    ANTHROPIC_API_KEY: 'offline',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    ...run.env,
  };
  const argv = [
    process.execPath,
    '--import',
    path.join(root, 'bench', 'startup-modules', 'preload.mjs'),
    path.join(root, 'dist', 'cli', 'main.js'),
    ...run.args,
  ];
  const quoted = argv.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  // The agent is not needed past its spawn: a few seconds, then the run is ended.
  if (run.tty) spawnSync('timeout', ['8', 'script', '-qfec', quoted, '/dev/null'], { cwd: project, env, stdio: 'ignore' });
  else spawnSync('timeout', ['8', ...argv], { cwd: project, env, input: run.stdin ?? '', stdio: ['pipe', 'ignore', 'ignore'] });
  const own = new Set();
  const packages = new Map();
  let spawned = false;
  for (const line of fs.readFileSync(log, 'utf8').split('\n')) {
    if (run.until && agent.test(line) && run.until.test(line)) {
      spawned = true;
      break;
    }
    const file = /^LOAD file:\/\/(.*)$/.exec(line)?.[1];
    if (!file) continue;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(file);
    if (pkg) packages.set(pkg[1], [...(packages.get(pkg[1]) ?? []), pkg[2]]);
    else if (file.startsWith(path.join(root, 'dist') + '/')) own.add(`src/${path.relative(path.join(root, 'dist'), file).replace(/\.js$/, '.ts')}`);
  }
  console.log(`## ${run.name}${run.until && !spawned ? ' (NO AGENT SPAWN SEEN)' : ''}: ${own.size} modules of ccc`);
  console.log([...own].sort().join(' '));
  // A CommonJS package's own requires do not pass the ESM hooks: its entry files are what is listed.
  console.log(
    `packages (ESM-loaded files): ${[...packages].map(([name, files]) => `${name} (${files.length <= 4 ? files.join(' ') : files.length})`).join(', ') || 'none'}\n`,
  );
}
fs.rmSync(work, { recursive: true, force: true });
