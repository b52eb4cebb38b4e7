/** A headless terminal for comparing screens in tests. */
import xtermHeadless from '@xterm/headless';

export type HeadlessTerminal = InstanceType<typeof xtermHeadless.Terminal>;

export function newTerminal(cols: number, rows: number): HeadlessTerminal {
  return new xtermHeadless.Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
}

export function writeAll(term: HeadlessTerminal, data: Uint8Array | string): Promise<void> {
  return new Promise((resolve) => term.write(data, resolve));
}

/** What a user sees: buffer kind, every line (scrollback included) and the cursor. */
export function screenText(term: HeadlessTerminal): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? '');
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return `[${buffer.type}] cursor ${buffer.cursorX},${buffer.cursorY}\n${lines.join('\n')}`;
}
