/**
 * GitHub Actions' two channels from a step to the runner, written so that no text can break or
 * forge them.
 *
 * Workflow commands are lines on stdout or stderr, `::name key=value,key=value::message`. The
 * runner reads each line (after leading spaces) that starts with `::`, takes the properties up to
 * the next `::`, splits them at `,` and `=`, then undoes `%0D`, `%0A` (and `%3A`, `%2C` in a
 * property) and `%25` last. Escaping `%` first, then CR and LF (and `:` and `,` in a property),
 * as GitHub's toolkit does, makes every text come back exactly and stay inside its command.
 *
 * `$GITHUB_OUTPUT` takes `name<<DELIMITER`, the value's lines, then the delimiter alone on a line;
 * the runner splits the file at LF only, so CR and any other character pass through. The
 * delimiter is random and never part of the value.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export function escapeCommandData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeCommandProperty(text: string): string {
  return escapeCommandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One command line, without its line end. */
export function workflowCommand(name: string, properties: Record<string, string | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
    .map(([key, value]) => `${key}=${escapeCommandProperty(value)}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeCommandData(message)}`;
}

/**
 * A token for `::stop-commands::<token>`: until `::<token>::`, the runner treats no line as a
 * command, so an agent's text that starts with `::` is only text.
 */
export function stopCommandsToken(): string {
  return `ccc-${randomBytes(16).toString('hex')}`;
}

/** One `$GITHUB_OUTPUT` entry, line end included. */
export function outputEntry(name: string, value: string, newDelimiter: () => string = () => `ghadelimiter_${randomUUID()}`): string {
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) throw new Error(`not an output name: ${JSON.stringify(name)}`);
  let delimiter = newDelimiter();
  for (let tries = 1; value.includes(delimiter) || name.includes(delimiter); tries++) {
    if (tries === 100) throw new Error('no delimiter found that the value does not hold');
    delimiter = newDelimiter();
  }
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}
