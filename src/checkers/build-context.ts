import type { CccConfig, ConfigLayer } from '../config/types.js';

/** What building the checkers of a run takes: the resolved config, where each key came from, and the project. */
export interface BuildContext {
  config: CccConfig;
  /** Which layer set each key (config/types.ts): a prompt_path the project's config set is bound to the project. */
  sources: Readonly<Record<string, ConfigLayer>>;
  cwd: string;
  /** Where TypeScript plugins' transpiled code is kept (see user-module.ts); none: transpiled on every load. */
  moduleCacheDir?: () => string;
  /** Where `supervisor.checkers` was set, for an error about one of its names (`command-line flag`, a config file's path). */
  checkersFrom?: string;
}
