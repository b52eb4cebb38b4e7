/**
 * How the GitHub Actions runner reads what a step wrote, done the runner's way, for tests that
 * check ccc's GitHub report round trip:
 * - workflow commands: the output is split into lines at CR, LF or CRLF (.NET's line reader); a
 *   line is a command when, after leading white space, it starts with `::` and names a known
 *   command up to the next `::`; properties split at `,` then at the first `=` (empty pieces
 *   dropped); property values undo `%0D`, `%0A`, `%3A`, `%2C`, then `%25`, the message `%0D`,
 *   `%0A`, then `%25`, each as a plain replace in that order. `::stop-commands::<token>` turns
 *   that off until a line `::<token>::`.
 * - `$GITHUB_OUTPUT`: lines split at LF; `name=value`, or `name<<DELIMITER` followed by the
 *   value's lines up to a line that is exactly the delimiter (the LF before it is not part of
 *   the value); an unterminated value is an error.
 */

export interface ParsedCommand {
  name: string;
  properties: Record<string, string>;
  message: string;
}

const KNOWN_COMMANDS = new Set([
  'add-mask',
  'add-matcher',
  'remove-matcher',
  'debug',
  'notice',
  'warning',
  'error',
  'group',
  'endgroup',
  'echo',
  'stop-commands',
  'set-output',
  'set-env',
  'save-state',
  'add-path',
]);

export function runnerCommands(output: string): ParsedCommand[] {
  const commands: ParsedCommand[] = [];
  let stopToken: string | undefined;
  for (const line of output.split(/\r\n|\r|\n/)) {
    const command = parseCommandLine(line, stopToken ? new Set([stopToken.toLowerCase()]) : KNOWN_COMMANDS);
    if (!command) continue;
    if (stopToken) {
      if (command.name.toLowerCase() === stopToken.toLowerCase()) stopToken = undefined;
      continue;
    }
    if (command.name === 'stop-commands') {
      stopToken = command.message;
      continue;
    }
    commands.push(command);
  }
  return commands;
}

function parseCommandLine(raw: string, known: Set<string>): ParsedCommand | undefined {
  const line = raw.trimStart();
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = line.slice(2, end);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!known.has(name.toLowerCase())) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const piece of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter(Boolean)) {
      const eq = piece.indexOf('=');
      const pair = eq < 0 ? [piece] : [piece.slice(0, eq), piece.slice(eq + 1)].filter(Boolean);
      if (pair.length === 2) properties[pair[0]!] = unescape(pair[1]!, PROPERTY_MAPPINGS);
    }
  }
  return { name, properties, message: unescape(line.slice(end + 2), DATA_MAPPINGS) };
}

const DATA_MAPPINGS: Array<[string, string]> = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  ['%', '%25'],
];
const PROPERTY_MAPPINGS: Array<[string, string]> = [
  ['\r', '%0D'],
  ['\n', '%0A'],
  [':', '%3A'],
  [',', '%2C'],
  ['%', '%25'],
];

function unescape(text: string, mappings: Array<[string, string]>): string {
  let out = text;
  for (const [token, replacement] of mappings) out = out.split(replacement).join(token);
  return out;
}

export function runnerOutputs(file: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  let index = 0;
  const readLine = (): string | undefined => {
    if (index >= file.length) return undefined;
    const lf = file.indexOf('\n', index);
    const start = index;
    if (lf < 0) {
      index = file.length;
      return file.slice(start);
    }
    index = lf + 1;
    return file.slice(start, lf);
  };
  for (let line = readLine(); line !== undefined; line = readLine()) {
    if (line === '') continue;
    const eq = line.indexOf('=');
    const heredoc = line.indexOf('<<');
    if (eq >= 0 && (heredoc < 0 || eq < heredoc)) {
      outputs[line.slice(0, eq)] = line.slice(eq + 1);
    } else if (heredoc >= 0) {
      const name = line.slice(0, heredoc);
      const delimiter = line.slice(heredoc + 2);
      if (!name || !delimiter) throw new Error(`invalid output line ${JSON.stringify(line)}`);
      const start = index;
      let end = index;
      for (let value = readLine(); value !== delimiter; value = readLine()) {
        if (value === undefined) throw new Error(`Matching delimiter not found '${delimiter}'`);
        end = index - 1;
      }
      outputs[name] = end > start ? file.slice(start, end) : '';
    } else {
      throw new Error(`invalid output line ${JSON.stringify(line)}`);
    }
  }
  return outputs;
}
