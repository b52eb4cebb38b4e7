/**
 * The configuration types, inferred from `schema.ts`. Keys are snake_case, as they have been
 * since the first release, so an existing `ccc.json` keeps working.
 */
import type { z } from 'zod';
import type { configSchema } from './schema.js';

/** The effective configuration, as validated: inferred from the one schema in schema.ts. */
export type CccConfig = z.output<typeof configSchema>;

export type LogLevel = CccConfig['supervisor']['log_level'];

/** A checker as written in config: a built-in or plugin name, or `{ use, ...options }`. */
export type CheckerDeclaration = CccConfig['supervisor']['checkers'][number];

export type ProviderConfig = CccConfig['providers'][string];

/** What a user may write: every key optional, nested. */
export type UserConfig = DeepPartial<CccConfig>;

type DeepPartial<T> = {
  [K in keyof T]?: T[K] extends Array<unknown> ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K];
};

/** Where an effective value came from, lowest precedence first. */
export type ConfigLayer = 'default' | 'global' | 'project' | 'env' | 'flag';

export interface ResolvedConfig {
  config: CccConfig;
  /** Dotted key path (e.g. `supervisor.max_iterations`) to the layer that set it. */
  sources: Record<string, ConfigLayer>;
  /** Files that were read, by layer. */
  files: { global?: string; project?: string };
  /** `$CCC_CONFIG_DIR` or `~/.claude`, absolute. */
  configDir: string;
  /** Problems that did not stop loading (an env value ignored under `onInvalid: 'warn'`); print them. */
  warnings: string[];
}

/** Identity helper so `ccc.config.ts` type-checks. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}
