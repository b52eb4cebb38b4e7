/**
 * The one schema of the configuration (docs/configuration.md): validation, the types (types.ts infers
 * them from here) and the "must be …" text of every key (each rule's description, see rules.ts).
 * ccc's own sections are strict: an unknown key is an error. `providers`, `settings` and checker
 * options are open, because they belong to Claude Code or to a plugin, not to ccc.
 */
import { z } from 'zod';
import { parseAllowRule } from '../checkers/reviewer/allow-rule.js';
import { anyObject, boolean, httpUrl, integer, nonEmptyString, numberAbove, numberFrom, oneOf } from './rules.js';

/** Absent or `null` means unset: a higher layer can write `null` to clear a lower layer's value. */
function unsettable<T extends z.ZodTypeAny>(schema: T) {
  return schema
    .nullish()
    .transform((value) => value ?? undefined)
    .describe(schema.description ?? '');
}

const port = integer(0, 65535);

/** USD per million tokens; no model has cost more than a few hundred. */
const tokenPrice = numberFrom(0, 10_000, 'USD per million tokens');

/*
 * The maximum of every number. Timers: Node cannot set one past 2^31-1 ms (about 24.8 days; a
 * longer one fires at once with a TimeoutOverflowWarning), so a review limit past it failed every
 * review at once. The Stop hook's timeout is the sum of every checker's limit and the wait on the
 * model's limits (loop/hook-timeout.ts), and the standalone hook's own waits derive from it: the
 * parts are bounded such that the largest sum still fits a timer (test/config/bounds.test.ts checks
 * it over the schema). Counts and sizes: past the bound a cap would never bind.
 */

/** No review or check runs longer than a day; a stop that took longer would be no stop at all. */
const CHECK_SECONDS = 86_400;
/** A day of waiting on the model's limits, inside one stop. */
const LIMIT_WAIT_MINUTES = 1440;
/** The longest step of that wait (limit-wait.ts doubles up to this). */
const LIMIT_RETRY_SECONDS = 900;
/** Reviews in one run: past a thousand, max_cost_usd is the cap that means something. */
const ITERATIONS = 1000;
/** Checkers in the pipeline: each runs at every stop, in turn, within the hook's one timeout. */
const CHECKERS = 16;
/** US dollars: a cap this high is no cap; unset it instead. */
const COST_USD = 100_000;
/** A checker plugin's heap (MB): 32 GiB. */
const PLUGIN_MEMORY_MB = 32_768;
/** A joiner's screen and scrollback: past 8 MiB a snapshot takes seconds to send and to draw. */
const SCROLLBACK_BYTES = 8 * 1024 * 1024;
/** Observers at once: each holds a socket and up to a snapshot's queue. */
const OBSERVERS = 256;
/** An hour, for the MCP server's delays, intervals and queue. */
const HOUR_MS = 3_600_000;
/** Restarts, retries and failures counted before giving up. */
const ATTEMPTS = 1000;
/** One webhook request: the run's end waits for it only briefly anyway; past a minute the hook is broken. */
const WEBHOOK_SECONDS = 60;

/** A checker's time limit: `supervisor.timeout_seconds`, and a checker's own `timeout_seconds` (checker-options.ts). */
export const checkSeconds = numberAbove(0, CHECK_SECONDS, 'seconds: a day');

const CHECKER =
  'a checker name, or an object { use: "<name>", ...options } (what a defineChecker definition called with its options returns, e.g. testGate({ command: "npm test" }))';

/**
 * A checker as written in config: a built-in or plugin name, or `{ use, ...options }`. A plugin's
 * `defineChecker` definition, called in ccc.config.ts, returns the latter (define-checker.ts).
 */
const checkerDeclaration = z
  .union([z.string().min(1), z.object({ use: nonEmptyString, timeout_seconds: checkSeconds.optional() }).passthrough()])
  .describe(CHECKER);

/** A provider: its `env` becomes environment variables (strings); other keys are free. */
const provider = z
  .object({
    env: z.record(z.string().describe('a string')).describe('an object of string values').optional(),
    settings: anyObject.optional(),
  })
  .passthrough()
  .describe('an object { env?, settings? }');

/** A path that means the same wherever ccc runs. */
const homeOrAbsolute = z
  .string()
  .refine((p) => p === '~' || p.startsWith('~/') || p.startsWith('/'))
  .describe('an absolute path, or one that starts with ~/');

/** `supervisor.reviewer.allow`: Claude Code permission rules; one that cannot be read says why. */
const permissionRule = z
  .string()
  .superRefine((rule, ctx) => {
    const parsed = parseAllowRule(rule);
    if (!parsed.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `a permission rule: ${parsed.reason}` });
  })
  .describe('a permission rule such as "Bash(make check)", "Bash(npm run lint:*)" or "Edit"');

/** What a run left alone tells a person (docs/configuration.md, "notify"). */
export const NOTIFY_EVENTS = ['end', 'stuck', 'waiting', 'cap'] as const;
export const WEBHOOK_FORMATS = ['auto', 'slack', 'discord', 'ntfy', 'json'] as const;
const AGREEMENTS = ['all', 'one'] as const;
const CODEX_WORKSPACES = ['project', 'copy'] as const;

export const configSchema = z
  .object({
    claude: z.object({ command: nonEmptyString, args: z.array(z.string().describe('a string')).describe('a list of strings') }).strict(),
    supervisor: z
      .object({
        max_iterations: integer(1, ITERATIONS),
        timeout_seconds: checkSeconds,
        log_level: oneOf(['debug', 'info', 'warn', 'error']),
        prompt_path: nonEmptyString,
        completion_marker: nonEmptyString,
        checkers: z.array(checkerDeclaration).min(1).max(CHECKERS).describe(`a list of 1 to ${CHECKERS} checker names or { use, ...options } objects`),
        /** Same feedback this many times in a row with an unchanged work tree ends the loop. */
        no_progress_limit: integer(1, ITERATIONS),
        /**
         * Stop when what this run spent reaches this (USD; unset = no cap): each claude run's own cost, never a
         * resumed session's earlier spend. Every review, plus the agent's turns (headless: each turn's result
         * frame; interactive and the standalone hook: claude's status line, recorded by ccc's status line
         * command, which runs the user's own) (docs/running.md, "Spending guards").
         */
        max_cost_usd: unsettable(numberAbove(0, COST_USD, 'USD')),
        /** The same for one task (from the user's prompt to the next one; headless: the run); unset = no cap. */
        max_task_cost_usd: unsettable(numberAbove(0, COST_USD, 'USD')),
        /** At a limit (cost cap, iterations) the agent gets one last, unreviewed turn to write down where the work stands. */
        wind_down: boolean,
        /** In all, how long a run waits out the model's rate limits (429) and overloads (529) before it gives up; 0: not at all. */
        limit_wait_minutes: integer(0, LIMIT_WAIT_MINUTES, 'minutes: a day'),
        /** The first wait on a limit; each next one is twice as long (at most 15 minutes). */
        limit_retry_seconds: numberAbove(0, LIMIT_RETRY_SECONDS, 'seconds'),
        /** The heap a checker plugin's worker thread may use (MB); past it the thread ends and that check fails, named. */
        plugin_max_memory_mb: integer(16, PLUGIN_MEMORY_MB, 'MB'),
        /** The forked reviewer (the `claude` checker). */
        reviewer: z
          .object({
            /** Permission rules beyond reading and verifying: `Bash(make check)`, `Bash(npm run lint:*)`, `Bash`, `Edit`. */
            allow: z.array(permissionRule).describe('a list of permission rules'),
            /** Another model than the agent's. It cannot read the agent's prompt cache: every review is a full read. */
            model: unsettable(nonEmptyString),
            /**
             * `true`: a `complete` counts only when some run of the tests passed during the review;
             * `'whole-suite'`: only when the project's whole suite did, on tests the agent did not weaken.
             */
            require_evidence: z.union([z.boolean(), z.literal('whole-suite')]).describe('true, false or "whole-suite"'),
          })
          .strict(),
        /**
         * How the reviewers among the checkers (`claude`, `codex`) decide together: `all` must find the
         * work complete (the first that does not ends the round), or `one` is enough (each is asked in
         * order until one does). Either way a disagreement is shown with every reviewer's verdict.
         */
        agreement: oneOf(AGREEMENTS),
        /** The `codex` checker: a fresh review by the Codex CLI in its read-only sandbox (docs/reviewer.md). */
        codex: z
          .object({
            command: nonEmptyString,
            /** Codex's own default when unset. */
            model: unsettable(nonEmptyString),
            /** A Responses API base URL (`…/v1`): the key is read from `api_key_env`. Unset: codex's own provider and login. */
            base_url: unsettable(httpUrl),
            api_key_env: z
              .string()
              .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
              .describe('an environment variable name'),
            /** `project`: the review runs in the project, read-only. `copy`: in a throwaway copy that its runners may write to. */
            workspace: oneOf(CODEX_WORKSPACES),
            /** Run without codex's kernel sandbox where it cannot work (a throwaway copy then, always). */
            unsandboxed: boolean,
            /** USD per million tokens; unset: codex reports no cost, so its reviews' cost is shown as unknown. */
            price: unsettable(
              z
                .object({ input: tokenPrice, cached_input: tokenPrice, output: tokenPrice })
                .strict()
                .describe('an object { input, cached_input, output } of USD per million tokens'),
            ),
          })
          .strict(),
      })
      .strict(),
    observer: z
      .object({
        host: nonEmptyString,
        port,
        token: unsettable(nonEmptyString),
        allow_input: boolean,
        scrollback_bytes: integer(0, SCROLLBACK_BYTES, 'bytes: 8 MiB'),
        max_observers: integer(1, OBSERVERS),
        /** Names besides observer.host a request's Host may give (`name` or `name:port`): an SSH tunnel, a proxy. */
        allowed_hosts: z.array(nonEmptyString).describe('a list of host names, each `name` or `name:port`'),
      })
      .strict(),
    mcp: z
      .object({
        enabled: boolean,
        max_restart_attempts: integer(0, ATTEMPTS),
        restart_delay_ms: integer(0, HOUR_MS, 'ms: an hour'),
        health_interval_ms: integer(1, HOUR_MS, 'ms: an hour'),
        health_timeout_ms: integer(1, HOUR_MS, 'ms: an hour'),
        health_failures: integer(1, ATTEMPTS),
        queue_timeout_ms: integer(0, HOUR_MS, 'ms: an hour'),
        http_port: port,
      })
      .strict(),
    kanban: z.object({ max_retries: integer(0, ATTEMPTS), roles_dir: nonEmptyString }).strict(),
    /** The notifications of the `notify` reporter (src/reporters/notify.ts). */
    notify: z
      .object({
        events: z.array(oneOf(NOTIFY_EVENTS)).describe(`a list of ${NOTIFY_EVENTS.map((e) => JSON.stringify(e)).join(', ')}`),
        /** `auto`: where a desktop session is (a display on Linux, always on macOS); `true`: try everywhere, warn once where no notifier exists. */
        desktop: z.union([z.boolean(), z.literal('auto')]).describe('true, false or "auto"'),
        webhook_url: unsettable(httpUrl),
        webhook_format: oneOf(WEBHOOK_FORMATS),
        webhook_timeout_seconds: numberAbove(0, WEBHOOK_SECONDS, 'seconds'),
      })
      .strict(),
    /** Who hears a run's events besides ccc's own output: `notify`, or a module (a path or a package), as vitest names reporters. */
    reporters: z.array(nonEmptyString).describe('a list of reporters: "notify", or a module path or package name'),
    plugins: z.array(nonEmptyString).describe('a list of non-empty strings'),
    /**
     * Places outside the project that files the project points ccc at (./SUPERVISOR.md, a project
     * config's prompt_path or kanban.roles_dir, a role prompt, the project config itself) may
     * resolve into, through a symlink or `..`. The user's own setting: a project's config cannot set it (load.ts).
     */
    trusted_dirs: z.array(homeOrAbsolute).describe('a list of absolute directories (or ~/…)'),
    current_provider: unsettable(nonEmptyString),
    providers: z.record(provider).describe('an object of providers'),
    settings: anyObject,
  })
  .strict();

/**
 * The schema of the value at `path` (object keys and array indexes), looking through optional,
 * nullable and transformed wrappers and into the object member of a union; undefined past a leaf.
 */
export function schemaAt(path: ReadonlyArray<string | number>, root: z.ZodTypeAny = configSchema): z.ZodTypeAny | undefined {
  let node: z.ZodTypeAny | undefined = root;
  for (const key of path) {
    node = node === undefined ? undefined : child(unwrap(node), key);
  }
  return node;
}

function child(node: z.ZodTypeAny, key: string | number): z.ZodTypeAny | undefined {
  if (node instanceof z.ZodObject) return (node.shape as Record<string, z.ZodTypeAny>)[String(key)];
  if (node instanceof z.ZodArray) return node.element as z.ZodTypeAny;
  if (node instanceof z.ZodRecord) return node.valueSchema as z.ZodTypeAny;
  if (node instanceof z.ZodUnion) {
    const options = node.options as z.ZodTypeAny[];
    return options.map((option) => child(unwrap(option), key)).find((found) => found !== undefined);
  }
  return undefined;
}

/** The schema inside optional, nullable, default and effect (refine, transform) wrappers. */
export function unwrap(node: z.ZodTypeAny): z.ZodTypeAny {
  if (node instanceof z.ZodOptional || node instanceof z.ZodNullable) return unwrap(node.unwrap() as z.ZodTypeAny);
  if (node instanceof z.ZodEffects) return unwrap(node.innerType() as z.ZodTypeAny);
  if (node instanceof z.ZodDefault) return unwrap(node.removeDefault() as z.ZodTypeAny);
  return node;
}
