/** For `ccc config`: what the reviewer of a supervised run here may run, and why (see checkers/reviewer/policy-text.ts). */
import { reviewerPolicyLines } from '../checkers/reviewer/policy-text.js';
import { normalizeDeclaration, ruleCommandsOf } from '../checkers/rule-commands.js';
import type { CccConfig } from '../config/types.js';
import { detectTestCommands } from '../init/test-command.js';

export function reviewerInUse(config: CccConfig, cwd: string): string[] {
  if (!config.supervisor.checkers.some((c) => normalizeDeclaration(c).use === 'claude')) {
    return ['# the reviewer (claude checker) is not in supervisor.checkers: no model reviews the work'];
  }
  return reviewerPolicyLines({
    tests: detectTestCommands(cwd),
    ruleCommands: ruleCommandsOf(config),
    allow: config.supervisor.reviewer.allow,
    requireEvidence: config.supervisor.reviewer.require_evidence,
  });
}
