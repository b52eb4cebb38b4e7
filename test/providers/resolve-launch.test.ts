import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import type { CccConfig } from '../../src/config/types.js';
import { parseLaunchArgs } from '../../src/providers/launch-args.js';
import { launchEnvironment } from '../../src/providers/launch-env.js';
import { resolveLaunch } from '../../src/providers/resolve-launch.js';

function config(overrides: Partial<CccConfig>): CccConfig {
  return { ...defaultConfig(), ...overrides };
}

const providers = {
  glm: {
    env: { ANTHROPIC_BASE_URL: 'https://glm.example/anthropic', ANTHROPIC_AUTH_TOKEN: 'glm-token' },
    settings: { model: 'glm-4.6', permissions: { allow: ['Read'] } },
  },
  kimi: { env: { ANTHROPIC_BASE_URL: 'https://kimi.example/anthropic', ANTHROPIC_API_KEY: 'kimi-key' } },
};

describe('resolveLaunch', () => {
  it("layers the provider's settings over the base settings and returns its env for the child", () => {
    const plan = resolveLaunch(config({ providers, settings: { model: 'opus', permissions: { deny: ['WebFetch'] }, theme: 'dark' } }), 'glm');
    expect(plan).toEqual({
      provider: 'glm',
      env: { ANTHROPIC_BASE_URL: 'https://glm.example/anthropic', ANTHROPIC_AUTH_TOKEN: 'glm-token' },
      settings: { model: 'glm-4.6', permissions: { deny: ['WebFetch'], allow: ['Read'] }, theme: 'dark' },
    });
    expect(plan.settings).not.toHaveProperty('env'); // the env goes to the process, not into --settings
  });

  it('uses current_provider when no provider is named, and nothing when neither is set', () => {
    expect(resolveLaunch(config({ providers, current_provider: 'kimi' })).provider).toBe('kimi');
    expect(resolveLaunch(config({ providers, settings: { theme: 'light' } }))).toEqual({ env: {}, settings: { theme: 'light' } });
  });

  it('refuses an unknown provider, listing the known ones and how to pass words to claude', () => {
    expect(() => resolveLaunch(config({ providers }), 'glmm', '/h/.claude/ccc.json')).toThrow(
      /Unknown provider or command "glmm"\. Known providers: glm, kimi\. Add it to "providers" in \/h\/\.claude\/ccc\.json.*ccc -- glmm/,
    );
    expect(() => resolveLaunch(config({ providers }), 'toString')).toThrow(/Unknown provider/);
  });

  it('refuses a current_provider that names nothing', () => {
    expect(() => resolveLaunch(config({ providers, current_provider: 'gone' }))).toThrow(/"current_provider" in ccc\.json names "gone"/);
  });
});

describe('the launch environment', () => {
  it("adds the provider's variables and drops inherited credentials it replaces", () => {
    const inherited = { PATH: '/bin', ANTHROPIC_API_KEY: 'my-real-anthropic-key', ANTHROPIC_BASE_URL: 'https://api.anthropic.com' };
    expect(launchEnvironment(inherited, { env: providers.glm.env })).toEqual({
      PATH: '/bin',
      ANTHROPIC_BASE_URL: 'https://glm.example/anthropic',
      ANTHROPIC_AUTH_TOKEN: 'glm-token',
    });
  });

  it('keeps inherited credentials for a provider that brings none (a local proxy, say)', () => {
    expect(launchEnvironment({ ANTHROPIC_API_KEY: 'k' }, { env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080' } })).toEqual({
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:8080',
    });
  });
});

describe('the words of a plain launch', () => {
  it.each([
    [[], { claudeArgs: [], supervised: false }],
    [['glm'], { provider: 'glm', claudeArgs: [], supervised: false }],
    [['glm', '-p', 'hi'], { provider: 'glm', claudeArgs: ['-p', 'hi'], supervised: false }],
    [['-p', 'hi'], { claudeArgs: ['-p', 'hi'], supervised: false }],
    [['--', 'glm'], { claudeArgs: ['glm'], supervised: false }],
    [['glm', '--', '--supervisor'], { provider: 'glm', claudeArgs: ['--supervisor'], supervised: false }],
    [['glm', '--supervisor', '-p', 'x'], { provider: 'glm', claudeArgs: ['--supervisor', '-p', 'x'], supervised: true }],
    [['--supervisor', '--', '-p'], { claudeArgs: ['--supervisor', '--', '-p'], supervised: true }],
    [['-p', '--', '--supervisor'], { claudeArgs: ['-p', '--', '--supervisor'], supervised: false }],
  ])('%j', (argv, expected) => {
    expect(parseLaunchArgs(argv)).toEqual(expected);
  });
});
