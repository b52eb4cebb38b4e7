/**
 * The `rule` checker's options, normalized once: `{ use: 'rule', commands?, must_match?,
 * must_not_match?, require_marker?, name?, timeout_seconds? }`. Patterns are JavaScript regular
 * expressions, written either bare (`all tests pass`) or with flags (`/error/i`); an invalid one is
 * a configuration error naming the key, at build time.
 */
import { checkTimeout, invalidOption, optionalName, optionalStringList, rejectUnknownKeys } from './checker-options.js';

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

const KEYS = ['commands', 'must_match', 'must_not_match', 'require_marker', 'name', 'timeout_seconds'] as const;

export function parseRuleOptions(raw: Record<string, unknown>): RuleOptions {
  rejectUnknownKeys('rule', raw, KEYS);
  checkTimeout('rule', raw);
  if (raw.require_marker !== undefined && typeof raw.require_marker !== 'boolean') {
    throw invalidOption('rule', 'require_marker', raw.require_marker, 'true or false');
  }
  const options: RuleOptions = {
    name: optionalName('rule', raw),
    commands: optionalStringList('rule', raw, 'commands'),
    mustMatch: compileAll(raw, 'must_match'),
    mustNotMatch: compileAll(raw, 'must_not_match'),
    requireMarker: raw.require_marker === true,
  };
  if (!options.commands.length && !options.mustMatch.length && !options.mustNotMatch.length && !options.requireMarker) {
    throw invalidOption('rule', 'commands', undefined, 'at least one rule: commands, must_match, must_not_match or require_marker: true');
  }
  return options;
}

function compileAll(raw: Record<string, unknown>, key: string): MessageRule[] {
  return optionalStringList('rule', raw, key).map((source, i) => ({ source, regex: compile(source, `${key}[${i}]`) }));
}

function compile(source: string, key: string): RegExp {
  const withFlags = /^\/(.+)\/([a-z]*)$/s.exec(source);
  const pattern = withFlags ? withFlags[1]! : source;
  // `g` and `y` make test()/exec() stateful across calls; one answer per message is wanted.
  const flags = withFlags ? withFlags[2]!.replace(/[gy]/g, '') : '';
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    throw invalidOption('rule', key, source, `a valid regular expression (${(error as Error).message})`);
  }
}
