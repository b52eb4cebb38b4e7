/**
 * The reviewer's PreToolUse hook (`node dist/checkers/reviewer/guard-main.js`, which runs this module), given to the
 * forked reviewer through `--settings`. Claude runs it before every tool call with the call as JSON
 * on stdin; it answers allow or deny from the policy in `CCC_REVIEWER_POLICY`. A hook's "deny"
 * wins over every allow rule (the user's settings.json, `--allowedTools`), and "allow" lets a
 * verification command run in `-p` mode where it would otherwise need approval.
 *
 * It fails closed: anything unexpected (no policy, unreadable input) is an error, and
 * `guard-main.ts` exits 2 on it, which makes Claude Code refuse the tool call.
 */
import { decideToolUse, type ReviewerPolicy } from './reviewer-policy.js';

export const POLICY_ENV = 'CCC_REVIEWER_POLICY';

export function guardAnswer(stdin: string, policyJson: string | undefined): string {
  if (!policyJson) throw new Error(`${POLICY_ENV} is not set`);
  const policy = JSON.parse(policyJson) as ReviewerPolicy;
  if (typeof policy?.root !== 'string' || !Array.isArray(policy.runners)) throw new Error(`${POLICY_ENV} is not a reviewer policy`);
  const call = JSON.parse(stdin) as { tool_name?: unknown; tool_input?: unknown; cwd?: unknown };
  if (typeof call.tool_name !== 'string') throw new Error('the hook input has no tool_name');
  // `cwd` is where the reviewer's shell is now (it follows a `cd` of an earlier call).
  const decision = decideToolUse(policy, call.tool_name, call.tool_input, typeof call.cwd === 'string' ? call.cwd : undefined);
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision.allow ? 'allow' : 'deny',
      permissionDecisionReason: decision.reason,
    },
  });
}
