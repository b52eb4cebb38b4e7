/**
 * Where `ccc observe` shows its status without touching the mirrored screen. The mirror needs
 * exactly the session's rows: a terminal taller than the session keeps them in a scroll region
 * and draws the status in its bottom row (with the cursor saved and restored, and again whenever
 * the mirrored program resets the region or clears the screen); a terminal that is not taller
 * shows the status in its title instead.
 */
export interface StatusLine {
  readonly kind: 'row' | 'title';
  show(text: string): void;
  /** After mirrored bytes were written: repairs the region and the row if they wiped them. */
  afterScreen(data: Buffer): void;
  /** Gives the terminal back: the region reset, the title cleared. */
  release(): void;
}

/** Sequences that reset the scroll region or clear the screen: RIS, DECSTR, DECSTBM, ED 2/3, the alternate screen. */
const WIPES = [/\x1bc/, /\x1b\[!p/, /\x1b\[[\d;]*r/, /\x1b\[[23]J/, /\x1b\[\?(1049|1047|47)[hl]/];

/** The status row (or title) for mirroring a session of `sessionRows` rows on `out`. */
export function statusLineFor(out: NodeJS.WriteStream, sessionRows: number): StatusLine {
  return (out.rows || 0) > sessionRows ? statusRow(out, sessionRows) : statusTitle(out);
}

function statusRow(out: NodeJS.WriteStream, mirrorRows: number): StatusLine {
  let text = '';
  const region = `\x1b7\x1b[1;${mirrorRows}r\x1b8`;
  const draw = () => {
    const fitted = fit(`[ccc] ${text}`, Math.max(1, out.columns || 80));
    out.write(`\x1b7\x1b[${out.rows};1H\x1b[0m\x1b[2K\x1b[7m${fitted}\x1b[0m\x1b8`);
  };
  out.write(region);
  // A sequence split across two writes is still seen: the end of the last write goes in front.
  let carry = '';
  return {
    kind: 'row',
    show(next) {
      text = next;
      draw();
    },
    afterScreen(data) {
      const latin1 = carry + data.toString('latin1');
      carry = latin1.slice(-16);
      if (!WIPES.some((pattern) => pattern.test(latin1))) return;
      out.write(region);
      draw();
    },
    release() {
      out.write(`\x1b7\x1b[r\x1b8\x1b[${out.rows};1H\x1b[2K`);
    },
  };
}

function statusTitle(out: NodeJS.WriteStream): StatusLine {
  // Control characters in a title would end the sequence early.

  const title = (text: string) => out.write(`\x1b]2;${text.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ')}\x07`);
  return {
    kind: 'title',
    show: (text) => title(`ccc observe: ${fit(text, 200)}`),
    afterScreen: () => {},
    release: () => title(''),
  };
}

/** One line of at most `width` characters. */
function fit(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, ' ')];
  return chars.length > width ? `${chars.slice(0, width - 1).join('')}…` : chars.join('');
}
