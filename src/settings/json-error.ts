/**
 * Where a JSON text goes wrong, as "line L, column C", for error messages about the user's files.
 * Node 20's JSON.parse messages quote a multi-line snippet and often no position at all; a user
 * fixing settings.json by hand needs the line. A small strict scanner (RFC 8259) finds the first
 * offending character; it only runs after JSON.parse has already failed.
 */
export function describeJsonError(text: string, parseError: Error): string {
  const offset = firstErrorOffset(text);
  const what = parseError.message.replace(/,? (\.\.\.)?"[\s\S]*" is not valid JSON$/, '').replace(/ in JSON at position \d+.*$/s, '');
  if (offset === undefined) return what;
  const before = text.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}: ${what}`;
}

/** Offset of the first character that cannot continue a valid JSON text (text.length = it ended too early). */
export function firstErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw new InvalidAt(i);
  };
  const literal = (word: string) => {
    for (const ch of word) {
      if (text[i] !== ch) fail();
      i++;
    }
  };
  const string = () => {
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      const ch = text.charCodeAt(i);
      if (ch < 0x20) fail();
      if (text[i] === '\\') {
        i++;
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[++i] ?? '')) fail();
        } else if (!'"\\/bfnrt'.includes(text[i] ?? 'x')) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0] === '' || match[0] === '-') fail();
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') return container('}', true);
    if (ch === '[') return container(']', false);
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail();
  };
  const container = (close: string, keyed: boolean) => {
    i++;
    ws();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      if (keyed) {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
      }
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (error) {
    return error instanceof InvalidAt ? Math.min(error.offset, text.length) : undefined;
  }
}

/** Ends the scan at the first character that cannot continue the JSON text. */
class InvalidAt extends Error {
  constructor(readonly offset: number) {
    super(`invalid JSON at offset ${offset}`);
  }
}
