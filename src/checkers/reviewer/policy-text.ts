/**
 * What the reviewer may run in a project and why, for people: `ccc config` prints it and `ccc init`
 * puts it into the starter SUPERVISOR.md. The same policy the guard enforces (reviewer-policy.ts).
 */
import type { DetectedTest } from '../../init/ecosystems.js';
import { parseAllowRule } from './allow-rule.js';
import { READ_ONLY_SUMMARY, workspaceTools } from './reviewer-policy.js';
import { WORKSPACE_USAGE } from './workspace-commands.js';
import { runnerForms } from './runner-forms.js';
import { FAMILIES } from './runner-args.js';

export interface PolicyTextInputs {
  tests: readonly DetectedTest[];
  ruleCommands: readonly string[];
  allow: readonly string[];
  requireEvidence?: boolean | 'whole-suite';
}

/** One entry per thing the reviewer may run: the command and why it may. */
export function reviewerPolicyEntries(inputs: PolicyTextInputs): Array<{ command: string; why: string }> {
  const entries = inputs.tests.map((test) => {
    const forms = runnerForms([test]).filter((f) => f.shown && f.family !== 'opaque');
    const runner =
      test.runner === 'opaque'
        ? 'no arguments: ccc does not know what this command runs'
        : `arguments ${FAMILIES[test.runner].name} takes to select tests or report`;
    const usage = forms.length ? `; e.g. ${forms.map((f) => `${f.words.join(' ')}${f.script === 'required' ? ' --' : ''} …`).join(', ')}` : '';
    const tools = workspaceTools([test]);
    const workspaces = tools.length ? `; packages of the workspace: ${tools.flatMap((t) => WORKSPACE_USAGE[t]).join(', ')}` : '';
    return { command: test.command, why: `detected: ${test.why} (${runner}${usage}${workspaces})` };
  });
  for (const command of inputs.ruleCommands) entries.push({ command, why: 'a rule checker runs it' });
  for (const rule of inputs.allow) {
    const parsed = parseAllowRule(rule);
    if (!parsed.ok) continue;
    const command = parsed.command === undefined ? `the ${parsed.tool} tool` : `${parsed.command}${parsed.prefix ? ' …' : ''}`;
    entries.push({ command, why: `supervisor.reviewer.allow: ${rule}` });
  }
  return entries;
}

/** `ccc config`'s section: comment lines. */
export function reviewerPolicyLines(inputs: PolicyTextInputs): string[] {
  const entries = reviewerPolicyEntries(inputs);
  const width = Math.max(0, ...entries.map((e) => e.command.length));
  return [
    '# the reviewer (claude checker) may read files and run, in this project:',
    ...(entries.length
      ? entries.map((e) => `#   ${e.command.padEnd(width)}   ${e.why}`)
      : ['#   no test command: none detected, no rule command, nothing in supervisor.reviewer.allow']),
    `#   ${READ_ONLY_SUMMARY.replace(/`/g, '')}`,
    '#   never: edits, writes, redirects into files, options that write or run other programs',
    `#   ${requireEvidenceText(inputs.requireEvidence)}`,
    '#   a complete verdict over a failing test run that no later run answered is not accepted',
  ];
}

/** What a `complete` needs, as `require_evidence` says. */
function requireEvidenceText(mode: boolean | 'whole-suite' | undefined): string {
  if (mode === 'whole-suite')
    return "a complete verdict counts only when the whole test suite ran green, on tests the agent did not weaken (supervisor.reviewer.require_evidence: 'whole-suite')";
  return mode
    ? 'a complete verdict without a passing test run is not accepted (supervisor.reviewer.require_evidence)'
    : 'a complete verdict without a passing test run is shown as unverified, one of part of the suite as focused';
}
