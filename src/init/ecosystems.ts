/**
 * The test commands ccc knows, as one table: ecosystem → the files that mark it → the command.
 * Every row that matches is found, so a polyglot repository (a Cargo crate with a Python binding
 * and a Makefile) gets all of its suites. Only unambiguous signs count: a wrong guess would make
 * the starter rule fail forever and would let the reviewer run something that is not a test.
 */
import type { ProjectFiles } from './project-files.js';

/** The test runner a command ends up in, which decides the arguments it may be given. */
export type RunnerFamily =
  | 'node-test'
  | 'jest'
  | 'vitest'
  | 'mocha'
  | 'pytest'
  /** Python's unittest, as a script or a Makefile runs it (`python3 -m unittest`); never detected on its own. */
  | 'unittest'
  | 'go'
  | 'cargo'
  | 'maven'
  | 'gradle'
  | 'deno'
  | 'dotnet'
  | 'mix'
  | 'rspec'
  | 'phpunit'
  /** `make test`: make's own quiet and parallel flags, no other target or variable. */
  | 'make'
  /** A command whose runner ccc does not know (a Makefile target, an npm script `node check.js`): no arguments. */
  | 'opaque';

export interface DetectedTest {
  /** `npm`, `pnpm`, `pytest`, `make`, … */
  ecosystem: string;
  /** The command as a user types it: `npm test`, `python3 -m pytest`, `./gradlew test`. */
  command: string;
  /** The file that made ccc detect it (relative to the project). */
  marker: string;
  /** Why, in a few words, for `ccc config` and the starter SUPERVISOR.md. */
  why: string;
  /** The runner the command invokes. */
  runner: RunnerFamily;
  /** The package manager's script text (`node --test`), when the command runs one. */
  script?: string;
  /** The package manager's workspaces are declared (package.json `workspaces`, pnpm-workspace.yaml): its workspace forms may run. */
  workspaces?: true;
}

interface EcosystemRow {
  ecosystem: string;
  /** The files that may mark it, the first one found is the marker. */
  markers: readonly string[];
  /** The tests it marks, or none when the marker alone is not enough (a Makefile without a test target). */
  detect(files: ProjectFiles, marker: string): Found[];
}

/** A row's finding; it may name a more precise ecosystem (the package manager) or marker. */
type Found = Omit<DetectedTest, 'ecosystem' | 'marker'> & Partial<Pick<DetectedTest, 'ecosystem' | 'marker'>>;

const MAKEFILES = ['GNUmakefile', 'makefile', 'Makefile'];
const JUSTFILES = ['justfile', 'Justfile', '.justfile'];
const PYTEST_MARKERS = ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'conftest.py', 'tests', 'test'];
const GRADLE_FILES = ['build.gradle', 'build.gradle.kts', 'settings.gradle', 'settings.gradle.kts'];

const ECOSYSTEMS: readonly EcosystemRow[] = [
  { ecosystem: 'node', markers: ['package.json'], detect: nodeTests },
  {
    ecosystem: 'turbo',
    markers: ['turbo.json'],
    detect: () => [{ command: 'npx turbo run test', why: 'turbo.json (Turborepo): the test task of the packages', runner: 'opaque' }],
  },
  {
    ecosystem: 'nx',
    markers: ['nx.json'],
    detect: () => [{ command: 'npx nx run-many -t test', why: 'nx.json (Nx): the test target of the projects', runner: 'opaque' }],
  },
  { ecosystem: 'deno', markers: ['deno.json', 'deno.jsonc'], detect: (_f, m) => [{ command: 'deno test', why: `${m} (Deno)`, runner: 'deno' }] },
  { ecosystem: 'pytest', markers: PYTEST_MARKERS, detect: pytestTests },
  { ecosystem: 'go', markers: ['go.mod'], detect: () => [{ command: 'go test ./...', why: 'go.mod (a Go module)', runner: 'go' }] },
  { ecosystem: 'cargo', markers: ['Cargo.toml'], detect: () => [{ command: 'cargo test', why: 'Cargo.toml (a Rust crate)', runner: 'cargo' }] },
  {
    ecosystem: 'maven',
    markers: ['pom.xml'],
    detect: (f) => [
      { command: f.exists('mvnw') ? './mvnw test' : 'mvn test', why: f.exists('mvnw') ? 'pom.xml and its wrapper mvnw' : 'pom.xml (Maven)', runner: 'maven' },
    ],
  },
  {
    ecosystem: 'gradle',
    markers: GRADLE_FILES,
    detect: (f, m) => [
      {
        command: f.exists('gradlew') ? './gradlew test' : 'gradle test',
        why: f.exists('gradlew') ? `${m} and its wrapper gradlew` : `${m} (Gradle)`,
        runner: 'gradle',
      },
    ],
  },
  {
    ecosystem: 'dotnet',
    markers: ['*.sln', '*.csproj', '*.fsproj', '*.vbproj'],
    detect: (_f, m) => [{ command: 'dotnet test', why: `${m} (.NET)`, runner: 'dotnet' }],
  },
  { ecosystem: 'mix', markers: ['mix.exs'], detect: () => [{ command: 'mix test', why: 'mix.exs (an Elixir project)', runner: 'mix' }] },
  {
    ecosystem: 'rspec',
    markers: ['.rspec', 'spec'],
    detect: (f, m) => (f.exists('Gemfile') ? [{ command: 'bundle exec rspec', why: `${m} and a Gemfile`, runner: 'rspec' }] : []),
  },
  { ecosystem: 'rake', markers: ['Rakefile'], detect: rakeTests },
  { ecosystem: 'phpunit', markers: ['composer.json'], detect: phpTests },
  {
    ecosystem: 'make',
    markers: MAKEFILES,
    detect: (f, m) =>
      targets(f.read(m) ?? '', /^([\w.-]+)\s*:(?![=:])/, ['test', 'check']).map((t) => ({
        command: `make ${t}`,
        why: `${m} has a \`${t}\` target`,
        runner: 'make' as const,
      })),
  },
  {
    ecosystem: 'just',
    markers: JUSTFILES,
    detect: (f, m) =>
      targets(f.read(m) ?? '', /^@?([\w-]+)\b[^:=]*:(?!=)/, ['test']).map(() => ({
        command: 'just test',
        why: `${m} has a \`test\` recipe`,
        runner: 'opaque' as const,
      })),
  },
];

/** Every test command the project's files name, in table order (the first is the one a starter rule runs). */
export function detectTests(files: ProjectFiles): DetectedTest[] {
  const found: DetectedTest[] = [];
  for (const row of ECOSYSTEMS) {
    const marker = firstMarker(files, row.markers);
    if (marker === undefined) continue;
    for (const test of row.detect(files, marker)) found.push({ ecosystem: row.ecosystem, marker, ...test });
  }
  return found;
}

/** The first marker present; `*.csproj` stands for any such file at the top of the project. */
function firstMarker(files: ProjectFiles, markers: readonly string[]): string | undefined {
  for (const marker of markers) {
    if (!marker.startsWith('*')) {
      if (files.exists(marker)) return marker;
      continue;
    }
    const match = files.list('.').find((name) => name.endsWith(marker.slice(1)));
    if (match) return match;
  }
  return undefined;
}

/** npm's placeholder script for "no tests yet". */
const NPM_PLACEHOLDER = /no test specified/;
const LOCKFILES: ReadonlyArray<[string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
];
const RUN_TEST: Record<string, string> = { npm: 'npm test', pnpm: 'pnpm test', yarn: 'yarn test', bun: 'bun run test' };
/** A monorepo root without a test script of its own: every package's test script. */
const RUN_WORKSPACE_TESTS: Record<string, string> = {
  npm: 'npm test --workspaces --if-present',
  pnpm: 'pnpm -r test',
  yarn: 'yarn workspaces foreach -A run test',
  bun: "bun run --filter '*' test",
};

function nodeTests(files: ProjectFiles): Found[] {
  const pkg = json(files.read('package.json'));
  const script = (pkg?.scripts as Record<string, unknown> | undefined)?.test;
  const declared = typeof pkg?.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager)?.[1] : undefined;
  const lock = LOCKFILES.find(([file]) => files.exists(file));
  const manager = declared ?? lock?.[1] ?? (files.exists('pnpm-workspace.yaml') ? 'pnpm' : 'npm');
  const workspaces = files.exists('pnpm-workspace.yaml') || (pkg !== undefined && pkg.workspaces !== undefined && pkg.workspaces !== null);
  if (typeof script !== 'string' || script.trim() === '' || NPM_PLACEHOLDER.test(script)) {
    if (!workspaces) return [];
    const where = files.exists('pnpm-workspace.yaml') ? 'pnpm-workspace.yaml' : 'package.json';
    return [
      {
        ecosystem: manager,
        marker: where,
        command: RUN_WORKSPACE_TESTS[manager]!,
        why: `${where} declares workspaces; the root has no test script`,
        runner: 'opaque',
        workspaces: true,
      },
    ];
  }
  const marker = declared ? 'package.json' : (lock?.[0] ?? 'package.json');
  const why = declared
    ? `package.json has a test script and names ${manager} as its packageManager`
    : lock
      ? `package.json has a test script; ${lock[0]}`
      : 'package.json has a test script';
  return [
    {
      ecosystem: manager,
      marker,
      command: RUN_TEST[manager]!,
      why: workspaces ? `${why}; it declares workspaces` : why,
      runner: scriptRunner(script),
      script: script.trim(),
      ...(workspaces ? { workspaces: true as const } : {}),
    },
  ];
}

/** The runner an npm script is, when it is one command that ccc knows; else opaque (no arguments). */
export function scriptRunner(script: string): RunnerFamily {
  if (/[;&|<>`$()]/.test(script)) return 'opaque';
  const words = script
    .trim()
    .split(/\s+/)
    .filter((w) => !/^[A-Z_][A-Z0-9_]*=/.test(w));
  const [first, second] = words;
  if (first === 'node' && words.includes('--test')) return 'node-test';
  if (first === 'jest') return 'jest';
  if (first === 'vitest') return 'vitest';
  if (first === 'mocha') return 'mocha';
  if (first === 'pytest' || (first?.startsWith('python') && second === '-m' && words[2] === 'pytest')) return 'pytest';
  return 'opaque';
}

/** pytest through uv or poetry when their lockfile says the project is run that way. */
function pytestTests(files: ProjectFiles): Found[] {
  const sign = PYTEST_MARKERS.find((m) => pytestSign(files, m));
  if (!sign) return [];
  const launcher = files.exists('uv.lock')
    ? ['uv run pytest', '; uv.lock']
    : files.exists('poetry.lock')
      ? ['poetry run pytest', '; poetry.lock']
      : ['python3 -m pytest', ''];
  return [{ marker: sign, command: launcher[0]!, why: `${pytestWhy(sign)}${launcher[1]}`, runner: 'pytest' }];
}

function pytestSign(files: ProjectFiles, name: string): boolean {
  switch (name) {
    case 'pytest.ini':
    case 'conftest.py':
      return files.exists(name);
    case 'pyproject.toml':
      return /\[tool\.pytest|\bpytest\b/.test(files.read(name) ?? '');
    case 'setup.cfg':
      return /^\[tool:pytest\]/m.test(files.read(name) ?? '');
    case 'tox.ini':
      return /^\[pytest\]/m.test(files.read(name) ?? '');
    default:
      return files.list(name).some((f) => /^test_.*\.py$|_test\.py$/.test(f));
  }
}

function pytestWhy(sign: string): string {
  if (sign === 'tests' || sign === 'test') return `${sign}/ holds test_*.py files`;
  if (sign === 'pyproject.toml') return 'pyproject.toml names pytest';
  if (sign === 'setup.cfg' || sign === 'tox.ini') return `${sign} has a pytest section`;
  return `${sign} (pytest)`;
}

function rakeTests(files: ProjectFiles): Found[] {
  if (!files.exists('Gemfile') || files.exists('.rspec') || files.exists('spec')) return [];
  return [{ command: 'bundle exec rake test', why: 'Rakefile and a Gemfile', runner: 'opaque' }];
}

function phpTests(files: ProjectFiles): Found[] {
  const script = (json(files.read('composer.json'))?.scripts as Record<string, unknown> | undefined)?.test;
  if (typeof script === 'string' && script.trim()) {
    return [
      {
        command: 'composer test',
        why: 'composer.json has a test script',
        runner: /^(vendor\/bin\/)?phpunit(\s|$)/.test(script.trim()) ? 'phpunit' : 'opaque',
        script: script.trim(),
      },
    ];
  }
  const config = ['phpunit.xml', 'phpunit.xml.dist'].find((f) => files.exists(f));
  return config ? [{ command: 'vendor/bin/phpunit', why: `${config} and composer.json`, runner: 'phpunit' }] : [];
}

/** The wanted targets a Makefile or justfile defines, in the order asked. */
function targets(text: string, rule: RegExp, wanted: readonly string[]): string[] {
  const defined = new Set<string>();
  for (const line of text.split('\n')) {
    const name = rule.exec(line)?.[1];
    if (name) defined.add(name);
    // `test check: deps` defines both
    const several = /^([\w.-]+(?:\s+[\w.-]+)+)\s*:(?![=:])/.exec(line)?.[1];
    for (const target of several?.split(/\s+/) ?? []) defined.add(target);
  }
  return wanted.filter((t) => defined.has(t));
}

function json(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
