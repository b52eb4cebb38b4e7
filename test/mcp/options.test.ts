/**
 * `ccc mcp` settings through the real config loader: defaults, the document-003 environment
 * variables, config file < environment < `--no-supervisor`, and the one documented exception to
 * "invalid config is an error": SUPERVISOR_MAX_RESTART_ATTEMPTS (003 SUP-005).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { mcpOptionsFrom } from '../../src/mcp/options.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-mcp-options-')));
const home = path.join(root, 'home');
fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function resolve(env: NodeJS.ProcessEnv, flags: { noSupervisor?: boolean } = {}) {
  const resolved = await loadConfig({ cwd: root, env: { HOME: home, ...env } });
  return { options: mcpOptionsFrom(resolved, flags), warnings: resolved.warnings };
}

describe('ccc mcp options', () => {
  it('uses the design defaults and ~/.claude', async () => {
    const { options, warnings } = await resolve({});
    expect(options).toEqual({
      enabled: true,
      max_restart_attempts: 5,
      restart_delay_ms: 2000,
      health_interval_ms: 30_000,
      health_timeout_ms: 5000,
      health_failures: 3,
      queue_timeout_ms: 30_000,
      http_port: 0,
      configDir: path.join(home, '.claude'),
      log_level: 'info',
      restart_window_ms: 600_000,
      ready_timeout_ms: 20_000,
    });
    expect(warnings).toEqual([]);
  });

  it('takes every document-003 environment variable', async () => {
    const { options } = await resolve({
      SUPERVISOR_ENABLED: 'false',
      SUPERVISOR_MAX_RESTART_ATTEMPTS: '7',
      SUPERVISOR_RESTART_DELAY_MS: '10',
      SUPERVISOR_HEALTH_INTERVAL_MS: '100',
      SUPERVISOR_HEALTH_TIMEOUT_MS: '20',
      SUPERVISOR_HEALTH_FAILURES: '2',
      SUPERVISOR_QUEUE_TIMEOUT_MS: '500',
      CCC_MCP_HTTP_PORT: '4567',
      CCC_CONFIG_DIR: path.join(root, 'cfg'),
      CCC_SUPERVISOR_LOG_LEVEL: 'debug',
    });
    expect(options).toMatchObject({
      enabled: false,
      max_restart_attempts: 7,
      restart_delay_ms: 10,
      health_interval_ms: 100,
      health_timeout_ms: 20,
      health_failures: 2,
      queue_timeout_ms: 500,
      http_port: 4567,
      configDir: path.join(root, 'cfg'),
      log_level: 'debug',
    });
  });

  it('lets the environment override ccc.json, and --no-supervisor override both', async () => {
    const configDir = path.join(root, 'layered');
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(path.join(configDir, 'ccc.json'), JSON.stringify({ mcp: { restart_delay_ms: 99, max_restart_attempts: 3 } }));
    expect((await resolve({ CCC_CONFIG_DIR: configDir })).options.restart_delay_ms).toBe(99);
    expect((await resolve({ CCC_CONFIG_DIR: configDir, SUPERVISOR_RESTART_DELAY_MS: '5' })).options.restart_delay_ms).toBe(5);
    expect((await resolve({ SUPERVISOR_ENABLED: 'true' }, { noSupervisor: true })).options.enabled).toBe(false);
    // SUP-005 keeps the configured value (here the file's 3) rather than failing.
    const invalid = await resolve({ CCC_CONFIG_DIR: configDir, SUPERVISOR_MAX_RESTART_ATTEMPTS: 'lots' });
    expect(invalid.options.max_restart_attempts).toBe(3);
  });

  it('warns and uses 5 for SUPERVISOR_MAX_RESTART_ATTEMPTS=-1 (SUP-005)', async () => {
    const { options, warnings } = await resolve({ SUPERVISOR_MAX_RESTART_ATTEMPTS: '-1' });
    expect(options.max_restart_attempts).toBe(5);
    expect(warnings).toEqual([
      'Ignoring environment variable SUPERVISOR_MAX_RESTART_ATTEMPTS="-1": must be an integer from 0 to 1000 (it sets mcp.max_restart_attempts); using the configured value instead.',
    ]);
  });

  it('never fails on any SUPERVISOR_MAX_RESTART_ATTEMPTS value: a whole number >= 0 is kept, anything else warns and gives 5', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), async (raw) => {
        const { options, warnings } = await resolve({ SUPERVISOR_MAX_RESTART_ATTEMPTS: raw });
        const valid = /^\+?\d+$/.test(raw.trim()) && Number.isSafeInteger(Number(raw.trim()));
        expect(options.max_restart_attempts).toBe(valid ? Number(raw.trim()) : 5);
        expect(warnings).toHaveLength(valid ? 0 : 1);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses the other variables when invalid, naming the variable and what is allowed', async () => {
    await expect(resolve({ SUPERVISOR_ENABLED: 'maybe' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringContaining('SUPERVISOR_ENABLED="maybe"'),
    });
    await expect(resolve({ SUPERVISOR_HEALTH_FAILURES: '0' })).rejects.toThrow(/SUPERVISOR_HEALTH_FAILURES="0": must be an integer from 1 to 1000/);
    await expect(resolve({ CCC_MCP_HTTP_PORT: '70000' })).rejects.toThrow(/CCC_MCP_HTTP_PORT="70000"/);
  });
});
