/**
 * The environment claude is started with: ccc's own, with the provider's variables on top.
 *
 * Claude Code sends every credential it finds (ANTHROPIC_API_KEY as `x-api-key` and
 * ANTHROPIC_AUTH_TOKEN as `Authorization: Bearer`, both at once; checked on 2.1.330), so a key
 * exported in the user's shell for another service would travel to this provider's endpoint.
 * When a provider brings its own credential, inherited credentials it does not set are dropped.
 */
import type { LaunchPlan } from './resolve-launch.js';

export const CREDENTIAL_KEYS = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'] as const;

export function launchEnvironment(inherited: NodeJS.ProcessEnv, plan: Pick<LaunchPlan, 'env'>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...inherited };
  if (CREDENTIAL_KEYS.some((key) => plan.env[key] !== undefined)) {
    for (const key of CREDENTIAL_KEYS) delete env[key];
  }
  return { ...env, ...plan.env };
}
