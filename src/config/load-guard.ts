/**
 * A config file is code that runs inside ccc while it loads. Two ways it can end the launch
 * without a word: a top-level await that never settles (Node would exit 13 once nothing else is
 * left to run) and a `process.exit` call. The first is bounded here (the pending timer also keeps
 * Node from giving up) and becomes an error naming the file; the second cannot be stopped, but
 * ccc says which file ended it before it goes.
 */
import fs from 'node:fs';
import { CccError } from '../errors.js';

/** A config's own work (reading a file, a quick lookup) fits well within this; a wait past it never ends. */
const CONFIG_LOAD_LIMIT_MS = 10_000;

export async function guardConfigLoad<T>(file: string, load: () => Promise<T>, limitMs = CONFIG_LOAD_LIMIT_MS): Promise<T> {
  const onExit = (code: number) => {
    try {
      fs.writeSync(
        2,
        `ccc: the config file ${file} ended ccc while it was loading (exit code ${code}; a process.exit call in it?). A config file must only export the configuration.\n`,
      );
    } catch {
      // stderr is gone: the exit code is all that is left
    }
  };
  process.on('exit', onExit);
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new CccError(
          'CONFIG_UNREADABLE',
          `The config file ${file} did not finish loading within ${limitMs / 1000}s: a top-level await in it never settles (or waits too long). Load the configuration without waiting on anything that may not answer.`,
          { data: { file } },
        ),
      );
    }, limitMs);
  });
  try {
    return await Promise.race([load(), limit]);
  } finally {
    clearTimeout(timer);
    process.off('exit', onExit);
  }
}
