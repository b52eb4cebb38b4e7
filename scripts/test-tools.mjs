// The system tools the test suite needs beyond `npm ci`: how each is found and how it is installed.
// One list for `npm run test:setup` (scripts/test-setup.mjs, which .ci/run runs too) and for the
// tests (test/support/tools.ts), which fail with the install line when a tool is missing, or skip
// where CCC_TEST_SKIP names the tool. Plain JavaScript with no dependency: it runs before `npm ci`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * name: what CCC_TEST_SKIP and the messages call it; probe: a command that exits 0 where the tool
 * works (or `path`: the first existing file is the tool); apt: Debian's packages; brew: Homebrew's
 * (absent where macOS has no way to provide it); why: what in the suite needs it.
 */
export const TOOLS = [
  {
    name: 'chromium',
    path: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/Applications/Chromium.app/Contents/MacOS/Chromium'],
    apt: ['chromium'],
    brew: ['--cask', 'chromium'],
    why: 'the observer page and the MCP feedback page are tested in a real Chromium',
  },
  {
    name: 'go',
    probe: ['go', 'version'],
    apt: ['golang-go'],
    brew: ['go'],
    why: "the reviewer's evidence tests run `go test` for real",
  },
  {
    name: 'cargo',
    probe: ['cargo', '--version'],
    apt: ['cargo'],
    brew: ['rust'],
    why: "the reviewer's evidence tests run `cargo test` for real",
  },
  {
    name: 'python3',
    probe: ['python3', '--version'],
    apt: ['python3'],
    brew: ['python'],
    why: 'the hook checker tests run hooks written in Python',
  },
  {
    name: 'pytest',
    probe: ['python3', '-m', 'pytest', '--version'],
    apt: ['python3-pytest'],
    brew: ['pytest'],
    why: "the reviewer's evidence tests run pytest for real",
  },
  {
    name: 'make',
    probe: ['make', '--version'],
    apt: ['make'],
    brew: ['make'],
    why: "the reviewer's evidence tests run `make test` for real",
  },
  {
    name: 'cc',
    probe: ['cc', '--version'],
    apt: ['gcc', 'libc6-dev'],
    why: 'the build compiles the native helpers (ccc-relay, ccc-lifeline), which the tests exercise (macOS: xcode-select --install)',
  },
  {
    name: 'git',
    probe: ['git', '--version'],
    apt: ['git'],
    brew: ['git'],
    why: "the reviewer's baseline and the package tests read real git repositories",
  },
  {
    name: 'ps',
    probe: ['ps', '-p', '1'],
    apt: ['procps'],
    why: "ccc reads a process's terminal state with ps, and the tests list what a run left behind",
  },
  {
    name: 'mkfs.ext4',
    probe: ['mkfs.ext4', '-V'],
    apt: ['e2fsprogs'],
    why: 'the config-directory tests fill and remount a real ext4 file system (Linux only)',
  },
  {
    name: 'unshare',
    probe: ['unshare', '--version'],
    apt: ['util-linux'],
    why: 'the config-directory and empty-HOME tests run in private mount namespaces, and the codex tests make a machine where no user namespace can be created (Linux only)',
  },
];

export const TOOL_NAMES = TOOLS.map((tool) => tool.name);

/** The path of a tool found by `path`, or whether a `probe` tool runs. */
export function findTool(tool, env = process.env) {
  if (tool.path) return tool.path.find(executable);
  const [command, ...args] = tool.probe;
  const run = spawnSync(command, args, { env, stdio: 'ignore', timeout: 30_000 });
  return run.status === 0 ? command : undefined;
}

function executable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The tools CCC_TEST_SKIP names (comma or space separated); a name that is no tool is an error, not a no-op. */
export function skippedTools(env = process.env) {
  const names = (env.CCC_TEST_SKIP ?? '').split(/[\s,]+/).filter(Boolean);
  const unknown = names.filter((name) => !TOOL_NAMES.includes(name));
  if (unknown.length > 0) throw new Error(`CCC_TEST_SKIP names ${unknown.join(', ')}, which no test needs; the tools are: ${TOOL_NAMES.join(', ')}`);
  return names;
}

/** The line that installs `tools` on this machine: apt-get (with sudo unless root), else Homebrew, else what to get. */
export function installLine(tools, machine = thisMachine()) {
  if (machine.apt) {
    const packages = [...new Set(tools.flatMap((tool) => tool.apt))];
    return `${machine.root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
  }
  if (machine.brew) {
    const lines = [];
    const formulae = tools.filter((tool) => tool.brew && tool.brew[0] !== '--cask').flatMap((tool) => tool.brew);
    const casks = tools.filter((tool) => tool.brew?.[0] === '--cask').map((tool) => tool.brew[1]);
    if (formulae.length > 0) lines.push(`brew install ${formulae.join(' ')}`);
    if (casks.length > 0) lines.push(`brew install --cask ${casks.join(' ')}`);
    const none = tools.filter((tool) => !tool.brew).map((tool) => tool.name);
    if (none.length > 0)
      lines.push(
        `no Homebrew package for ${none.join(', ')}: ${tools
          .filter((tool) => !tool.brew)
          .map((tool) => tool.why)
          .join('; ')}`,
      );
    return lines.join(' && ');
  }
  return `install ${tools.map((tool) => tool.name).join(', ')} (Debian: apt-get install -y ${[...new Set(tools.flatMap((tool) => tool.apt))].join(' ')})`;
}

export function thisMachine() {
  const onPath = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
  return { apt: onPath('apt-get'), brew: !onPath('apt-get') && onPath('brew'), root: process.getuid?.() === 0 };
}
