/**
 * Guesses the project's test command for the starter config, from the files that name one. A
 * guess that is wrong would make the rule checker fail forever, so only unambiguous signs count,
 * and no guess at all leaves the rule commented out.
 */
import fs from 'node:fs';
import path from 'node:path';

/** npm's placeholder script for "no tests yet". */
const NPM_PLACEHOLDER = /no test specified/;

export function detectTestCommand(cwd: string): string | undefined {
  const has = (file: string) => fs.existsSync(path.join(cwd, file));
  const npmTest = packageTestScript(path.join(cwd, 'package.json'));
  if (npmTest) return 'npm test';
  if (has('go.mod')) return 'go test ./...';
  if (has('Cargo.toml')) return 'cargo test';
  if (has('pytest.ini') || has('conftest.py') || fileMentions(path.join(cwd, 'pyproject.toml'), 'pytest')) return 'python3 -m pytest';
  return undefined;
}

function packageTestScript(file: string): string | undefined {
  try {
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { scripts?: Record<string, unknown> };
    const script = pkg.scripts?.test;
    return typeof script === 'string' && script.trim() !== '' && !NPM_PLACEHOLDER.test(script) ? script : undefined;
  } catch {
    return undefined;
  }
}

function fileMentions(file: string, word: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').includes(word);
  } catch {
    return false;
  }
}
