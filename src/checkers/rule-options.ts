/**
 * The `rule` checker's options, normalized once: `{ use: 'rule', commands?, must_match?,
 * must_not_match?, require_marker?, name?, timeout_seconds? }`. Patterns are JavaScript regular
 * expressions, written either bare (`all tests pass`) or with flags (`/error/i`); an invalid one is
 * a configuration error naming the key, at build time.
 */
import { z } from 'zod';
import { commonOptions, invalidOption, nonBlank, parseCheckerOptions, stringList } from './checker-options.js';
import { errorText } from '../errors.js';

export interface MessageRule {
  /** As written in config, for feedback. */
  source: string;
  regex: RegExp;
}

export interface RuleOptions {
  name: string;
  commands: string[];
  mustMatch: MessageRule[];
  mustNotMatch: MessageRule[];
  requireMarker: boolean;
}

/** A pattern, compiled; one that does not compile says why in its "expected …" text. */
const pattern = nonBlank('a non-empty string').transform((source, ctx): MessageRule => {
  const regex = compile(source);
  if (typeof regex === 'string') {
    ctx.addIssue({ code: z.ZodIssueCode.custom, params: { allowed: `a valid regular expression (${regex})` } });
    return z.NEVER;
  }
  return { source, regex };
});

/** In the order the keys are checked: the first problem is the error. */
const ruleShape = {
  ...commonOptions,
  require_marker: z.boolean().describe('true or false').default(false),
  commands: stringList,
  must_match: z.array(pattern).describe('a list of strings').default([]),
  must_not_match: z.array(pattern).describe('a list of strings').default([]),
};

export function parseRuleOptions(raw: Record<string, unknown>): RuleOptions {
  const parsed = parseCheckerOptions('rule', ruleShape, raw, ['commands', 'must_match', 'must_not_match', 'require_marker', 'name', 'timeout_seconds']);
  const options: RuleOptions = {
    name: parsed.name ?? 'rule',
    commands: parsed.commands,
    mustMatch: parsed.must_match,
    mustNotMatch: parsed.must_not_match,
    requireMarker: parsed.require_marker,
  };
  if (!options.commands.length && !options.mustMatch.length && !options.mustNotMatch.length && !options.requireMarker) {
    throw invalidOption('rule', 'commands', undefined, 'at least one rule: commands, must_match, must_not_match or require_marker: true');
  }
  return options;
}

/** The regular expression, or why it does not compile. */
function compile(source: string): RegExp | string {
  const withFlags = /^\/(.+)\/([a-z]*)$/s.exec(source);
  const pattern = withFlags ? withFlags[1]! : source;
  // `g` and `y` make test()/exec() stateful across calls; one answer per message is wanted.
  const flags = withFlags ? withFlags[2]!.replace(/[gy]/g, '') : '';
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    return errorText(error);
  }
}
