/**
 * Every number that comes in has a maximum, the same in every layer, and no value the schema
 * accepts overflows a timer (Node's limit, 2^31-1 ms: past it a timer fires at once) or a size:
 * each key's own timers, and the Stop hook's timeout summed from them.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { envOverrides, readEnvLayer } from '../../src/config/env-overrides.js';
import { getPath, setPath } from '../../src/config/key-path.js';
import { loadConfig } from '../../src/config/load.js';
import { configSchema, unwrap } from '../../src/config/schema.js';
import type { CccConfig } from '../../src/config/types.js';
import { validateConfig } from '../../src/config/validate.js';
import { isCccError } from '../../src/errors.js';
import { checkerTimeoutsSeconds, hookClaimWaitSeconds, hookTimeoutSeconds } from '../../src/loop/hook-timeout.js';

const TIMER_MAX_MS = 2 ** 31 - 1;

interface NumberLeaf {
  path: string;
  rule: z.ZodNumber;
}

/** Every number in the schema, with its dotted path (`supervisor.checkers[].timeout_seconds` for a checker's own). */
function numberLeaves(node: z.ZodTypeAny, path = ''): NumberLeaf[] {
  const inner = unwrap(node);
  if (inner instanceof z.ZodNumber) return [{ path, rule: inner }];
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape as Record<string, z.ZodTypeAny>).flatMap(([key, child]) => numberLeaves(child, path === '' ? key : `${path}.${key}`));
  }
  if (inner instanceof z.ZodArray) return numberLeaves(inner.element as z.ZodTypeAny, `${path}[]`);
  if (inner instanceof z.ZodUnion) return (inner.options as z.ZodTypeAny[]).flatMap((option) => numberLeaves(option, path));
  if (inner instanceof z.ZodRecord) return numberLeaves(inner.valueSchema as z.ZodTypeAny, `${path}.*`);
  return [];
}

const leaves = numberLeaves(configSchema);
const topLeaves = leaves.filter((leaf) => !leaf.path.includes('['));

function validate(merged: Record<string, unknown>): CccConfig {
  return validateConfig({ merged, sources: {}, files: {} });
}

const parentOf = (path: string) => path.slice(0, path.lastIndexOf('.'));

/** The defaults with `path` set; in an object unset by default (a price), the numbers beside it at their minimum. */
function withValue(path: string, value: unknown): Record<string, unknown> {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  if (getPath(config, parentOf(path)) === undefined)
    for (const sibling of topLeaves) if (parentOf(sibling.path) === parentOf(path)) setPath(config, sibling.path, sibling.rule.minValue ?? 0);
  setPath(config, path, value);
  return config;
}

/** How a message states the maximum: "from 1 to 1000", "at most 86400". */
const maxText = (rule: z.ZodNumber) => new RegExp(`(to|at most) ${rule.maxValue}\\b`);

/** The first value past the rule's maximum. */
const pastMax = (rule: z.ZodNumber) => (rule.isInt ? rule.maxValue! + 1 : rule.maxValue! * (1 + Number.EPSILON) + Number.EPSILON);

/** Every timer ccc sets from the configuration, in ms. */
function timersMs(config: CccConfig): Record<string, number> {
  const { supervisor, mcp } = config;
  const checkers = checkerTimeoutsSeconds(supervisor);
  return {
    'supervisor.timeout_seconds': supervisor.timeout_seconds * 1000,
    ...Object.fromEntries(checkers.map((seconds, i) => [`checker ${i}`, seconds * 1000])),
    'supervisor.limit_retry_seconds': supervisor.limit_retry_seconds * 1000,
    'supervisor.limit_wait_minutes': supervisor.limit_wait_minutes * 60_000,
    'the Stop hook': hookTimeoutSeconds(checkers, supervisor.limit_wait_minutes) * 1000,
    "the standalone hook's wait for another review": hookClaimWaitSeconds(checkers, supervisor.limit_wait_minutes) * 1000,
    'mcp.restart_delay_ms': mcp.restart_delay_ms,
    'mcp.health_interval_ms': mcp.health_interval_ms,
    'mcp.health_timeout_ms': mcp.health_timeout_ms,
    'mcp.queue_timeout_ms': mcp.queue_timeout_ms,
    'notify.webhook_timeout_seconds': config.notify.webhook_timeout_seconds * 1000,
  };
}

describe('bounds on every number of the configuration', () => {
  it('every number in the schema has a finite maximum (a new key without one fails here)', () => {
    expect(leaves.length).toBeGreaterThan(15);
    for (const { path, rule } of leaves) {
      expect(rule.maxValue, path).not.toBeNull();
      expect(Number.isFinite(rule.maxValue), path).toBe(true);
      expect(rule.description, path).toContain(`${rule.maxValue}`);
    }
  });

  it('the value just past each maximum is refused, naming the key and the maximum', () => {
    for (const { path, rule } of topLeaves) {
      const value = pastMax(rule);
      expect(() => validate(withValue(path, value)), path).toThrow(`${path} = ${value}`);
      expect(() => validate(withValue(path, value)), path).toThrow(maxText(rule));
      expect(() => validate(withValue(path, rule.maxValue)), path).not.toThrow();
    }
  });

  it("a checker's own timeout_seconds, and more checkers than the pipeline takes, are refused the same way", () => {
    const checker = (timeout: number) => ({ use: 'rule', commands: ['true'], timeout_seconds: timeout });
    expect(() => validate(withValue('supervisor.checkers', ['claude', checker(86_401)]))).toThrow(
      'supervisor.checkers[1].timeout_seconds = 86401 (from unknown layer): must be a number above 0 and at most 86400',
    );
    expect(() => validate(withValue('supervisor.checkers', [checker(86_400)]))).not.toThrow();
    expect(() => validate(withValue('supervisor.checkers', Array(17).fill('claude')))).toThrow('a list of 1 to 16 checker');
  });

  it('a number too large for JSON (1e309 parses to Infinity) is named as Infinity, never as null', () => {
    expect(() => validate(withValue('supervisor.max_iterations', JSON.parse('1e309')))).toThrow(
      'supervisor.max_iterations = Infinity (from unknown layer): must be an integer from 1 to 1000.',
    );
    expect(() => validate(withValue('supervisor.timeout_seconds', Number.NaN))).toThrow('supervisor.timeout_seconds = NaN');
  });

  it('every numeric environment variable takes the bounds of its key: past them an error names the variable and the maximum', () => {
    const numeric = envOverrides.filter((entry) => leaves.some((leaf) => leaf.path === entry.path));
    expect(numeric.length).toBeGreaterThan(10);
    for (const entry of numeric) {
      const rule = leaves.find((leaf) => leaf.path === entry.path)!.rule;
      const env = { [entry.name]: String(pastMax(rule)) };
      if (entry.onInvalid === 'warn') {
        expect(readEnvLayer(env).warnings.join(), entry.name).toMatch(maxText(rule));
        continue;
      }
      expect(() => readEnvLayer(env), entry.name).toThrow(`${entry.name}=`);
      expect(() => readEnvLayer(env), entry.name).toThrow(maxText(rule));
      expect(readEnvLayer({ [entry.name]: String(rule.maxValue) }).config).not.toEqual({});
    }
  });

  it('a command-line flag past the bound is refused by the same rule (exit 2, CONFIG_INVALID)', async () => {
    const error: unknown = await loadConfig({ cwd: '/', env: { HOME: '/nonexistent' }, flags: { supervisor: { timeout_seconds: 3_000_000 } } }).catch(
      (e: unknown) => e,
    );
    expect(isCccError(error) && error.exitCode).toBe(2);
    expect(String(error)).toContain('supervisor.timeout_seconds = 3000000 (from command-line flag): must be a number above 0 and at most 86400');
  });

  it('property: no accepted configuration sets a timer Node cannot hold, the Stop hook included', () => {
    const value = (rule: z.ZodNumber) => {
      const min = rule.minValue ?? 0;
      const max = rule.maxValue!;
      // A rule "above 0" has no minimum of its own that counts: the smallest double above it.
      const exclusiveMin = rule._def.checks.some((check) => check.kind === 'min' && !check.inclusive);
      return rule.isInt
        ? fc.oneof(fc.constant(max), fc.integer({ min, max }))
        : fc.oneof(fc.constant(max), fc.double({ min, max, noNaN: true, minExcluded: exclusiveMin }));
    };
    const timeoutRule = leaves.find((leaf) => leaf.path === 'supervisor.checkers[].timeout_seconds')!.rule;
    const checker = fc.oneof(
      fc.constant('claude' as const),
      value(timeoutRule).map((timeout_seconds) => ({ use: 'rule', commands: ['true'], timeout_seconds })),
    );
    const overrides = fc.record(Object.fromEntries(topLeaves.map(({ path, rule }) => [path, value(rule)])));
    fc.assert(
      fc.property(overrides, fc.array(checker, { minLength: 1, maxLength: 16 }), (values, checkers) => {
        const merged = defaultConfig() as unknown as Record<string, unknown>;
        for (const [path, v] of Object.entries(values)) setPath(merged, path, v);
        setPath(merged, 'supervisor.checkers', checkers);
        const config = validate(merged);
        for (const [name, ms] of Object.entries(timersMs(config))) {
          expect(Number.isFinite(ms), name).toBe(true);
          expect(ms, name).toBeLessThanOrEqual(TIMER_MAX_MS);
        }
        expect(config.observer.scrollback_bytes * 3).toBeLessThan(2 ** 31);
      }),
      { numRuns: 500 },
    );
  });

  it('the largest configuration arms every timer without a TimeoutOverflowWarning (the test setup fails on any warning)', () => {
    const merged = defaultConfig() as unknown as Record<string, unknown>;
    for (const { path, rule } of topLeaves) setPath(merged, path, rule.maxValue);
    setPath(merged, 'supervisor.checkers', Array(16).fill({ use: 'rule', commands: ['true'], timeout_seconds: 86_400 }));
    const timers = Object.values(timersMs(validate(merged))).map((ms) => setTimeout(() => {}, ms));
    timers.forEach((timer) => clearTimeout(timer));
  });
});
