/**
 * The relay and the lifeline as a supervised session here would get them: in use (from where),
 * set up now (prebuilt or compiled: the doctor tries again what the start path said once; a binary
 * that does not match what ccc built is replaced the same way), or missing and why. `CCC_RELAY` chooses the relay as it does for a session.
 */
import fs from 'node:fs';
import { INSTALL_COMPILER, locateHelpers, type HelperState } from '../native/native-helpers.js';
import { platformName } from '../native/helper-key.js';
import type { DoctorCheck } from './doctor-check.js';
import type { Place } from './session-checks.js';

const ORIGIN: Record<HelperState['origin'], string> = {
  package: 'built with the package on this machine',
  cache: 'set up by an earlier ccc',
  prebuilt: `the package's prebuilt for ${platformName()}, set up now`,
  compiled: 'compiled now',
  missing: 'missing',
};

const LOSS = {
  'ccc-relay': "without it interactive sessions run on ccc's slower Node proxy",
  'ccc-lifeline': 'without it what ccc starts (agent turns, the reviewer, commands) keeps running when ccc is killed with kill -9',
};

export function helperChecks(place: Place): DoctorCheck[] {
  const states = locateHelpers({ env: place.env, cwd: place.cwd, configDir: place.configDir, retry: true });
  return states.map((state) => (state.name === 'ccc-relay' ? relayCheck(place.env, state) : helperCheck(state)));
}

function relayCheck(env: NodeJS.ProcessEnv, state: HelperState): DoctorCheck {
  const chosen = env.CCC_RELAY;
  if (chosen === 'off')
    return { id: 'relay', title: 'relay', status: 'note', needed: false, detail: "off (CCC_RELAY=off): interactive sessions run on ccc's Node proxy" };
  if (!chosen) return helperCheck(state);
  const runs = isExecutable(chosen);
  return runs
    ? { id: 'relay', title: 'relay', status: 'ok', needed: true, detail: `${chosen} (CCC_RELAY)` }
    : {
        id: 'relay',
        title: 'relay',
        status: 'missing',
        needed: true,
        detail: `CCC_RELAY=${chosen} is not an executable file`,
        fix: 'point CCC_RELAY at a ccc-relay, or unset it',
      };
}

function helperCheck(state: HelperState): DoctorCheck {
  const base = { id: state.name === 'ccc-relay' ? 'relay' : 'lifeline', title: state.name === 'ccc-relay' ? 'relay' : 'lifeline', needed: true } as const;
  if (state.path) {
    const replaced = state.replaced ? `, replacing one that did not match what ccc built: ${state.replaced}` : '';
    return { ...base, status: 'ok', detail: `${state.path} (${ORIGIN[state.origin]}${replaced})` };
  }
  return { ...base, status: 'missing', detail: `${state.reason}; ${LOSS[state.name]}`, fix: `${INSTALL_COMPILER}, then run \`ccc doctor\` again` };
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
