/**
 * The Stop hook command ccc puts into the claude it launches: the native client `ccc-stop-hook`
 * (native/stop-hook.c) when it is in place, which costs a stop no Node start-up or module loading,
 * else this ccc's own `supervisor-hook --proxy`. Both speak the same stop channel and give the
 * same answers. `CCC_STOP_HOOK=node` chooses the Node hook.
 */
import { findNativeHelper } from '../native/native-helpers.js';
import { selfCommand } from './launch-settings.js';

export function proxyHookArgv(env: NodeJS.ProcessEnv, find: (env: NodeJS.ProcessEnv) => string | undefined = (e) => findNativeHelper('ccc-stop-hook', e)): string[] {
  const native = env.CCC_STOP_HOOK === 'node' ? undefined : find(env);
  return native ? [native, '--proxy'] : [...selfCommand(), 'supervisor-hook', '--proxy'];
}
