/**
 * `ccc mcp` settings: defaults, environment overrides, `--no-supervisor`, and the one documented
 * exception to "invalid config is an error": SUPERVISOR_MAX_RESTART_ATTEMPTS (003 SUP-005).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CccError } from '../../src/errors.js';
import { mcpDefaults, resolveMcpOptions } from '../../src/mcp/options.js';

function resolve(env: NodeJS.ProcessEnv, extra: { noSupervisor?: boolean; base?: Record<string, unknown> } = {}) {
  const warnings: string[] = [];
  const options = resolveMcpOptions({ env: { HOME: '/home/u', ...env }, warn: (m) => warnings.push(m), ...extra });
  return { options, warnings };
}

describe('resolveMcpOptions', () => {
  it('uses the design defaults and ~/.claude', () => {
    const { options, warnings } = resolve({});
    expect(options).toMatchObject({ ...mcpDefaults, configDir: '/home/u/.claude', log_level: 'info', restart_window_ms: 600_000 });
    expect(warnings).toEqual([]);
  });

  it('takes every documented environment override', () => {
    const { options } = resolve({
      SUPERVISOR_ENABLED: 'false',
      SUPERVISOR_MAX_RESTART_ATTEMPTS: '7',
      SUPERVISOR_RESTART_DELAY_MS: '10',
      SUPERVISOR_HEALTH_INTERVAL_MS: '100',
      SUPERVISOR_HEALTH_TIMEOUT_MS: '20',
      SUPERVISOR_HEALTH_FAILURES: '2',
      SUPERVISOR_QUEUE_TIMEOUT_MS: '500',
      CCC_MCP_HTTP_PORT: '4567',
      CCC_CONFIG_DIR: '/tmp/cfg',
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
      configDir: '/tmp/cfg',
      log_level: 'debug',
    });
  });

  it('lets the environment override the config file, and --no-supervisor override both', () => {
    expect(resolve({}, { base: { restart_delay_ms: 99, enabled: true } }).options.restart_delay_ms).toBe(99);
    expect(resolve({ SUPERVISOR_RESTART_DELAY_MS: '5' }, { base: { restart_delay_ms: 99 } }).options.restart_delay_ms).toBe(5);
    expect(resolve({ SUPERVISOR_ENABLED: 'true' }, { noSupervisor: true }).options.enabled).toBe(false);
  });

  it('warns and uses 5 for SUPERVISOR_MAX_RESTART_ATTEMPTS=-1 (SUP-005)', () => {
    const { options, warnings } = resolve({ SUPERVISOR_MAX_RESTART_ATTEMPTS: '-1' });
    expect(options.max_restart_attempts).toBe(5);
    expect(warnings).toEqual(['SUPERVISOR_MAX_RESTART_ATTEMPTS="-1" is invalid (use a whole number >= 0); using the default 5.']);
  });

  it('never fails on any SUPERVISOR_MAX_RESTART_ATTEMPTS value: a whole number >= 0 is kept, anything else warns and gives 5', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const { options, warnings } = resolve({ SUPERVISOR_MAX_RESTART_ATTEMPTS: raw });
        const valid = /^\s*\d+\s*$/.test(raw);
        expect(options.max_restart_attempts).toBe(valid ? Number(raw) : 5);
        expect(warnings).toHaveLength(valid ? 0 : 1);
      }),
    );
  });

  it('refuses other invalid values with a message naming the variable and what is allowed', () => {
    const error = (() => {
      try {
        resolve({ SUPERVISOR_ENABLED: 'maybe' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CccError);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', exitCode: 2, message: 'SUPERVISOR_ENABLED is "maybe"; use true or false.' });
    expect(() => resolve({ SUPERVISOR_HEALTH_FAILURES: '0' })).toThrow('SUPERVISOR_HEALTH_FAILURES is "0"; use a whole number from 1 to 1000.');
    expect(() => resolve({ CCC_MCP_HTTP_PORT: 'http' })).toThrow('CCC_MCP_HTTP_PORT is "http"; use a whole number.');
    expect(() => resolve({}, { base: { queue_timeout_ms: -5 } })).toThrow('mcp.queue_timeout_ms is -5; use a whole number from 0 to 3600000.');
  });
});
