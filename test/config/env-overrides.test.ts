/** The env table and its parsers: strict, typed, errors that name variable, value and what is allowed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envBoolean, envInteger, envNumber, envOneOf, envString } from '../../src/config/env-parsers.js';
import { integer, numberAbove } from '../../src/config/rules.js';
import { envOverrides, envVariableFor, readEnvLayer, type EnvOverride } from '../../src/config/env-overrides.js';
import { redactedUrl } from '../../src/config/secret-url.js';

describe('env parsers', () => {
  it('integers: exact decimal integers within range only', () => {
    const p = envInteger(integer(1, Number.MAX_SAFE_INTEGER));
    expect(p.parse('30')).toBe(30);
    expect(p.parse(' 7 ')).toBe(7);
    for (const bad of ['0', '-1', '1.5', '12abc', '1e3', '', ' ', '0x10', 'NaN', 'Infinity', '99999999999999999999']) {
      expect(p.parse(bad), bad).toBeUndefined();
    }
  });

  it('fuzz: an integer parser accepts exactly the safe integers >= min, written in decimal', () => {
    const p = envInteger(integer(1, Number.MAX_SAFE_INTEGER));
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const v = p.parse(raw);
        const t = raw.trim();
        const expected = /^[+-]?\d+$/.test(t) && Number.isSafeInteger(Number(t)) && Number(t) >= 1 ? Number(t) : undefined;
        expect(v).toBe(expected);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(p.parse(String(n))).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ max: 0 }), (n) => {
        expect(p.parse(String(n))).toBeUndefined();
      }),
    );
  });

  it('fuzz: a number parser returns a finite number above the bound or nothing, and round-trips numbers', () => {
    const p = envNumber(numberAbove(0, Number.MAX_VALUE));
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const v = p.parse(raw);
        if (v !== undefined) {
          expect(Number.isFinite(v) && v > 0).toBe(true);
          expect(v).toBe(Number(raw.trim()));
        }
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.double({ min: Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(p.parse(String(n))).toBe(n);
      }),
    );
    expect(p.parse('0')).toBeUndefined();
    expect(p.parse('1.5')).toBe(1.5);
    expect(p.parse('.5')).toBe(0.5);
    expect(p.parse('Infinity')).toBeUndefined();
    expect(p.parse('1,5')).toBeUndefined();
  });

  it('enums are case-insensitive; strings are verbatim and non-empty; booleans take the usual words', () => {
    const level = envOneOf(['debug', 'info'] as const);
    expect(level.parse('DEBUG')).toBe('debug');
    expect(level.parse('verbose')).toBeUndefined();
    expect(envString().parse(' a b ')).toBe(' a b ');
    expect(envString().parse('')).toBeUndefined();
    const b = envBoolean();
    expect(['true', 'YES', '1', 'on'].map((s) => b.parse(s))).toEqual([true, true, true, true]);
    expect(['false', 'No', '0', 'off'].map((s) => b.parse(s))).toEqual([false, false, false, false]);
    expect(b.parse('maybe')).toBeUndefined();
  });

  it('fuzz: no parser throws on any text', () => {
    const parsers = envOverrides.map((e) => e.parser);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (raw) => {
        parsers.forEach((p) => p.parse(raw));
      }),
      { numRuns: 300 },
    );
  });
});

describe('readEnvLayer', () => {
  it('builds a config object from the variables that are set, ignoring empty ones', () => {
    const layer = readEnvLayer({
      CCC_SUPERVISOR_MAX_ITERATIONS: '30',
      CCC_SUPERVISOR_LOG_LEVEL: 'warn',
      CCC_CLAUDE: '',
      CCC_OBSERVER_TOKEN: 'abc',
      UNRELATED: 'x',
    });
    expect(layer.config).toEqual({ supervisor: { max_iterations: 30, log_level: 'warn' }, observer: { token: 'abc' } });
    expect(layer.warnings).toEqual([]);
  });

  it('fuzz: any value either parses into the table path or throws CONFIG_INVALID naming the variable', () => {
    fc.assert(
      fc.property(fc.constantFrom(...envOverrides), fc.string({ minLength: 1 }), (entry, raw) => {
        try {
          const layer = readEnvLayer({ [entry.name]: raw });
          const keys = entry.path.split('.');
          const parsed = entry.parser.parse(raw);
          if (parsed === undefined && entry.onInvalid === 'warn') {
            expect(layer.config).toEqual({});
            expect(layer.warnings[0]).toContain(`${entry.name}=${JSON.stringify(raw)}`);
            return;
          }
          expect(keys.reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], layer.config)).toBe(parsed);
        } catch (error) {
          expect((error as { code: string }).code).toBe('CONFIG_INVALID');
          // A credential is never repeated (a webhook URL): its scheme and host at most.
          expect((error as Error).message).toContain(`${entry.name}=${entry.secret ? redactedUrl(raw) : JSON.stringify(raw)}`);
          expect((error as Error).message).toContain(entry.parser.allowed);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("an entry with onInvalid 'warn' keeps the lower layers' value and reports a warning", () => {
    const table: EnvOverride[] = [
      { name: 'SUPERVISOR_MAX_RESTART_ATTEMPTS', path: 'mcp.max_restart_attempts', parser: envInteger(integer(0, 1000)), onInvalid: 'warn' },
    ];
    const layer = readEnvLayer({ SUPERVISOR_MAX_RESTART_ATTEMPTS: '-1' }, table);
    expect(layer.config).toEqual({});
    expect(layer.warnings).toEqual([
      'Ignoring environment variable SUPERVISOR_MAX_RESTART_ATTEMPTS="-1": must be an integer from 0 to 1000 (it sets mcp.max_restart_attempts); using the configured value instead.',
    ]);
  });

  it('every variable of the brief is in the table', () => {
    expect(Object.fromEntries(envOverrides.map((e) => [e.name, e.path]))).toEqual({
      CCC_SUPERVISOR_MAX_ITERATIONS: 'supervisor.max_iterations',
      CCC_SUPERVISOR_TIMEOUT_SECONDS: 'supervisor.timeout_seconds',
      CCC_SUPERVISOR_LOG_LEVEL: 'supervisor.log_level',
      CCC_SUPERVISOR_PROMPT_PATH: 'supervisor.prompt_path',
      CCC_SUPERVISOR_MAX_COST_USD: 'supervisor.max_cost_usd',
      CCC_SUPERVISOR_MAX_TASK_COST_USD: 'supervisor.max_task_cost_usd',
      CCC_SUPERVISOR_WIND_DOWN: 'supervisor.wind_down',
      CCC_SUPERVISOR_LIMIT_WAIT_MINUTES: 'supervisor.limit_wait_minutes',
      CCC_SUPERVISOR_LIMIT_RETRY_SECONDS: 'supervisor.limit_retry_seconds',
      CCC_SUPERVISOR_PLUGIN_MAX_MEMORY_MB: 'supervisor.plugin_max_memory_mb',
      CCC_CLAUDE: 'claude.command',
      CCC_CODEX: 'supervisor.codex.command',
      CCC_CODEX_BASE_URL: 'supervisor.codex.base_url',
      CCC_OBSERVER_TOKEN: 'observer.token',
      CCC_NOTIFY_WEBHOOK_URL: 'notify.webhook_url',
      CCC_NOTIFY_WEBHOOK_FORMAT: 'notify.webhook_format',
      SUPERVISOR_ENABLED: 'mcp.enabled',
      SUPERVISOR_MAX_RESTART_ATTEMPTS: 'mcp.max_restart_attempts',
      SUPERVISOR_RESTART_DELAY_MS: 'mcp.restart_delay_ms',
      SUPERVISOR_HEALTH_INTERVAL_MS: 'mcp.health_interval_ms',
      SUPERVISOR_HEALTH_TIMEOUT_MS: 'mcp.health_timeout_ms',
      SUPERVISOR_HEALTH_FAILURES: 'mcp.health_failures',
      SUPERVISOR_QUEUE_TIMEOUT_MS: 'mcp.queue_timeout_ms',
      CCC_MCP_HTTP_PORT: 'mcp.http_port',
    });
    expect(envVariableFor('claude.command')).toBe('CCC_CLAUDE');
  });
});
