/**
 * `ccc [provider] [claude args]` with the real claude against two scripted model servers: the
 * named provider's endpoint gets the request, the other never does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runCcc, writeSupervisorPrompt } from '../support/ccc-run.js';
import { TEST_API_KEY } from '../support/claude-env.js';
import { it, type Rig } from '../support/fixtures.js';

/** Two providers, each its own scripted server, in a world with no endpoint or key of its own. */
async function twoProviders(rig: Rig) {
  const alpha = await rig.server((r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'done' } } : { text: 'answer from alpha' }));
  const beta = await rig.server(() => ({ text: 'answer from beta' }));
  const world = rig.world();
  delete world.env.ANTHROPIC_BASE_URL;
  delete world.env.ANTHROPIC_API_KEY;
  const cccJson = path.join(world.claudeDir, 'ccc.json');
  fs.writeFileSync(
    cccJson,
    JSON.stringify({
      supervisor: { max_iterations: 7 },
      providers: {
        alpha: { env: { ANTHROPIC_BASE_URL: alpha.url, ANTHROPIC_API_KEY: TEST_API_KEY } },
        beta: { env: { ANTHROPIC_BASE_URL: beta.url, ANTHROPIC_API_KEY: TEST_API_KEY }, settings: { model: 'beta-model-1' } },
      },
    }),
  );
  const readCccJson = () => JSON.parse(fs.readFileSync(cccJson, 'utf8'));
  return { alpha, beta, world, cccJson, readCccJson };
}

describe('ccc <provider> [claude args]', () => {
  it("reaches the named provider's endpoint only, records it as current, and a bare ccc reuses it", async ({ rig }) => {
    const { alpha, beta, world, readCccJson } = await twoProviders(rig);
    const first = await runCcc(world, ['alpha', '-p', 'hi']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe('answer from alpha');
    expect(alpha.byKind('agent')).toHaveLength(1);
    expect(alpha.byKind('agent')[0]!.lastUserText).toMatch(/\bhi$/);
    expect(beta.requests).toEqual([]);
    expect(readCccJson()).toMatchObject({ current_provider: 'alpha', supervisor: { max_iterations: 7 } });
    expect(fs.readdirSync(world.claudeDir).filter((n) => n.startsWith('ccc.json.bak-'))).toHaveLength(1);

    const again = await runCcc(world, ['-p', 'again']);
    expect(again.stdout.trim()).toBe('answer from alpha');
    expect(beta.requests).toEqual([]);

    const other = await runCcc(world, ['beta', '-p', 'switch']);
    expect(other.code).toBe(0);
    expect(other.stdout.trim()).toBe('answer from beta');
    expect(beta.byKind('agent')[0]!.body.model).toBe('beta-model-1'); // the provider's settings reached claude
    expect(alpha.byKind('agent')).toHaveLength(2);
    expect(readCccJson().current_provider).toBe('beta');
    expect(fs.existsSync(path.join(world.claudeDir, 'settings.json'))).toBe(false); // no user file was written
  });

  it('--supervisor: the agent and its reviewer both use the named provider', async ({ rig }) => {
    const { alpha, beta, world, readCccJson } = await twoProviders(rig);
    writeSupervisorPrompt(world);
    const run = await runCcc(world, ['alpha', '--supervisor', '-p', 'supervised task']);
    expect(run.stderr).toContain('Supervisor mode enabled');
    expect(run.code).toBe(0);
    expect(alpha.byKind('agent')).toHaveLength(1);
    expect(alpha.byKind('agent')[0]!.lastUserText).toContain('supervised task');
    expect(alpha.byKind('review')).toHaveLength(1);
    expect(beta.requests).toEqual([]);
    expect(readCccJson().current_provider).toBe('alpha');
  });

  it("refuses when settings.json env would override the provider's endpoint, before anything starts", async ({ rig }) => {
    const { alpha, beta, world, cccJson, readCccJson } = await twoProviders(rig);
    const settings = path.join(world.claudeDir, 'settings.json');
    const text = JSON.stringify({ env: { ANTHROPIC_BASE_URL: beta.url } });
    fs.writeFileSync(settings, text);
    const result = await runCcc(world, ['alpha', '-p', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ccc: Provider "alpha" cannot be used as configured');
    expect(result.stderr).toContain(`- ANTHROPIC_BASE_URL in the "env" of ${settings} would override the provider's ANTHROPIC_BASE_URL`);
    expect(result.stderr).toContain(`remove ANTHROPIC_BASE_URL from the "env" of ${settings}`);
    expect(result.stderr).toContain(`remove ANTHROPIC_BASE_URL from providers.alpha.env in ${cccJson}`);
    expect(alpha.requests).toEqual([]);
    expect(beta.requests).toEqual([]);
    expect(fs.readFileSync(settings, 'utf8')).toBe(text);
    expect(readCccJson().current_provider).toBeUndefined();
  });

  it('refuses an unknown provider and tells how to pass words to claude', async ({ rig }) => {
    const { alpha, world } = await twoProviders(rig);
    const result = await runCcc(world, ['alpah', '-p', 'hi']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown provider or command "alpah". Known providers: alpha, beta.');
    expect(result.stderr).toContain('`ccc -- alpah`');
    expect(alpha.requests).toEqual([]);
  });

  it('CCC_CLAUDE pointing at nothing: CLAUDE_NOT_FOUND, exit 2, and how to fix it', async ({ rig }) => {
    const { world, readCccJson } = await twoProviders(rig);
    const result = await runCcc(world, ['alpha', '-p', 'hi'], { env: { CCC_CLAUDE: path.join(world.root, 'no-such-claude') } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Cannot find the claude executable "${path.join(world.root, 'no-such-claude')}" (from CCC_CLAUDE)`);
    expect(result.stderr).toMatch(/Install Claude Code .* or set CCC_CLAUDE/);
    expect(readCccJson().current_provider).toBeUndefined();
  });
});
