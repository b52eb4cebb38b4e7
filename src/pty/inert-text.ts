/**
 * Text from outside ccc (a model's feedback or reasons, an error claude relayed) on its way to a
 * terminal: every control character becomes a space, so an escape sequence inside it (OSC 52
 * writing the clipboard, OSC 0 setting the title, SGR 8 hiding text, a C1 CSI) reaches the
 * terminal as visible, harmless characters. C0, DEL and C1. Logs and `--json` keep the exact text;
 * this is only for the screen.
 */
const CONTROLS = /[\x00-\x1f\x7f-\x9f]/g;
const CONTROLS_BUT_LINES = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** One line (a terminal title, a status line): newlines and tabs become spaces too. */
export function inertLine(text: string): string {
  return text.replace(CONTROLS, ' ');
}

/** Several lines: keeps `\n` and `\t`, nothing else. */
export function inertText(text: string): string {
  return text.replace(CONTROLS_BUT_LINES, ' ');
}
