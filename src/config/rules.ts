/**
 * Value rules shared by the validator and the environment parsers, so that "what is allowed"
 * reads the same whether a bad value came from a file, a flag or an environment variable.
 */
export interface Rule {
  /** Completes "must be …": shown to the user when `test` fails. */
  allowed: string;
  test(value: unknown): boolean;
}

export function integer(min: number, max?: number): Rule {
  return {
    allowed: max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`,
    test: (v) => Number.isSafeInteger(v) && (v as number) >= min && (max === undefined || (v as number) <= max),
  };
}

/** A finite number strictly above `above`. */
export function numberAbove(above: number): Rule {
  return {
    allowed: `a number > ${above}`,
    test: (v) => typeof v === 'number' && Number.isFinite(v) && v > above,
  };
}

export function oneOf<T extends string>(values: readonly T[]): Rule {
  return {
    allowed: `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`,
    test: (v) => typeof v === 'string' && (values as readonly string[]).includes(v),
  };
}

export const nonEmptyString: Rule = {
  allowed: 'a non-empty string',
  test: (v) => typeof v === 'string' && v.length > 0,
};

export const boolean: Rule = {
  allowed: 'true or false',
  test: (v) => typeof v === 'boolean',
};

export const stringList: Rule = {
  allowed: 'a list of strings',
  test: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string'),
};

export const nonEmptyStringList: Rule = {
  allowed: 'a list of non-empty strings',
  test: (v) => Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0),
};

export const stringMap: Rule = {
  allowed: 'an object of string values',
  test: (v) => isPlainObject(v) && Object.values(v).every((s) => typeof s === 'string'),
};

export const anyObject: Rule = {
  allowed: 'an object',
  test: (v) => isPlainObject(v),
};

/** An object literal or parsed JSON object, as opposed to arrays, class instances and null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
