/**
 * Whether a sed script only prints: addresses, and the commands that print, move or end (`p`,
 * `=`, `l`, `q`, `d`, `n`, `s///` without the `w` and `e` flags, …). Anything else is refused,
 * `w`/`W` (write a file), `e` (run a command) and `r`/`R` included. sed versions differ on whether
 * the delimiter closes a regular expression inside `[…]`, so a script must pass read both ways.
 */
export function sedScriptPrintsOnly(script: string): boolean {
  return readsAs(script, true) && readsAs(script, false);
}

const SIMPLE = new Set(['p', 'P', '=', 'l', 'q', 'Q', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', 'z']);
const S_FLAGS = /^[gpiImM0-9]*$/;

function readsAs(script: string, bracketAware: boolean): boolean {
  const s = new Cursor(script, bracketAware);
  let depth = 0;
  for (;;) {
    s.skip(/[\s;]/);
    if (s.done()) return depth === 0;
    if (s.peek() === '}') {
      if (--depth < 0) return false;
      s.next();
      continue;
    }
    if (!s.address()) return false;
    s.skip(/\s/);
    if (s.peek() === ',') {
      s.next();
      s.skip(/\s/);
      if (!s.address(true)) return false;
      s.skip(/\s/);
    }
    if (s.peek() === '!') {
      s.next();
      s.skip(/\s/);
    }
    const command = s.next();
    if (command === '{') {
      depth++;
      continue;
    }
    if (command === 's') {
      if (!s.delimited(2)) return false;
      if (!S_FLAGS.test(s.until(/[\s;}]/))) return false;
    } else if (command === 'y') {
      if (!s.delimited(2)) return false;
    } else if (command === 'q' || command === 'Q' || command === 'l') {
      s.skip(/\s/);
      s.until(/[^\d]/);
    } else if (command === undefined || !SIMPLE.has(command)) return false;
    s.skip(/[ \t]/);
    if (!s.done() && !/[;}\s]/.test(s.peek() ?? '')) return false;
  }
}

class Cursor {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly bracketAware: boolean,
  ) {}

  done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string | undefined {
    return this.text[this.at];
  }

  next(): string | undefined {
    return this.text[this.at++];
  }

  skip(pattern: RegExp): void {
    while (!this.done() && pattern.test(this.peek()!)) this.at++;
  }

  /** The characters up to the first that matches `stop` (not included). */
  until(stop: RegExp): string {
    const from = this.at;
    while (!this.done() && !stop.test(this.peek()!)) this.at++;
    return this.text.slice(from, this.at);
  }

  /** An optional address: a line number, `$`, `first~step`, `/re/` or `\cREc` (flags I, M); `+N`, `~N` as a second one. */
  address(second = false): boolean {
    const c = this.peek();
    if (c === undefined) return !second;
    if (/\d/.test(c)) {
      this.until(/[^\d]/);
      if (this.peek() === '~') {
        this.next();
        this.until(/[^\d]/);
      }
      return true;
    }
    if (c === '$') {
      this.next();
      return true;
    }
    if (second && (c === '+' || c === '~')) {
      this.next();
      return this.until(/[^\d]/) !== '';
    }
    if (c === '/' || c === '\\') {
      this.next();
      const delimiter = c === '/' ? '/' : this.next();
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false;
      if (!this.regex(delimiter)) return false;
      this.skip(/[IM]/);
      return true;
    }
    return !second;
  }

  /** `count` parts, each ended by the delimiter that follows the command (`s/a/b/`: 2). */
  delimited(count: number): boolean {
    const delimiter = this.next();
    if (delimiter === undefined || delimiter === '\\' || delimiter === '\n' || /\s/.test(delimiter)) return false;
    for (let i = 0; i < count; i++) if (!this.regex(delimiter, i === 0)) return false;
    return true;
  }

  /** Up to and past the closing delimiter; backslash escapes; `[…]` protects it when read bracket-aware. */
  private regex(delimiter: string, brackets = true): boolean {
    while (!this.done()) {
      const c = this.next()!;
      if (c === '\\') {
        if (this.done()) return false;
        this.next();
      } else if (c === delimiter) return true;
      else if (c === '[' && brackets && this.bracketAware) {
        if (!this.bracket()) return false;
      }
    }
    return false;
  }

  /** A bracket expression after its `[`: `]` first is literal, `[:class:]` inside. */
  private bracket(): boolean {
    if (this.peek() === '^') this.next();
    if (this.peek() === ']') this.next();
    while (!this.done()) {
      const c = this.next()!;
      if (c === ']') return true;
      if (c === '[' && /[:.=]/.test(this.peek() ?? '')) {
        const kind = this.next()!;
        const close = this.text.indexOf(`${kind}]`, this.at);
        if (close === -1) return false;
        this.at = close + 2;
      }
    }
    return false;
  }
}
