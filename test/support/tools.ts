/**
 * The system tools a test needs beyond `npm ci` (scripts/test-tools.mjs, the list `npm run
 * test:setup` installs from). A test that needs a missing tool fails with the line that installs
 * it; one whose tool CCC_TEST_SKIP names is skipped with a note, which the summary reporter counts.
 * Never a silent skip: a suite that passes with a runner absent would pass without testing it.
 */
import { findTool, installLine, skippedTools, TOOLS } from '../../scripts/test-tools.mjs';

export type ToolName = 'chromium' | 'go' | 'cargo' | 'python3' | 'pytest' | 'make' | 'cc' | 'git' | 'ps' | 'mkfs.ext4' | 'unshare';

/** The note of a test CCC_TEST_SKIP skipped: the summary reporter finds the skipped tools by it. */
export const SKIP_NOTE = 'CCC_TEST_SKIP=';

const found = new Map<ToolName, string | undefined>();

/** Where the tool is (its path or command name), once per file. */
export function toolPath(name: ToolName): string | undefined {
  if (!found.has(name)) found.set(name, findTool(toolOf(name)));
  return found.get(name);
}

function toolOf(name: ToolName) {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in scripts/test-tools.mjs`);
  return tool;
}

/**
 * Call first in a test that needs `names`: skips it (CCC_TEST_SKIP names one of them), or throws
 * with the install line (one is missing), or returns.
 */
export function needs(context: { skip(note?: string): never }, ...names: ToolName[]): void {
  const skipped = skippedTools();
  const byName = names.filter((name) => skipped.includes(name));
  if (byName.length > 0) context.skip(`${SKIP_NOTE}${byName.join(',')}`);
  const missing = names.filter((name) => toolPath(name) === undefined);
  if (missing.length === 0) return;
  const tools = missing.map(toolOf);
  throw new Error(
    `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (${tools.map((t) => t.why).join('; ')}): ` +
      `${installLine(tools)}, or \`npm run test:setup\`; to run the suite without it: CCC_TEST_SKIP=${missing.join(',')} npm test`,
  );
}

/**
 * For a test skipped at collection (`it.skipIf(skippedByName(tool))`, where its layout keeps the
 * skip out of its body): true when CCC_TEST_SKIP names the tool. Its title says so with `skipNote`,
 * which the summary reporter reads as it reads `needs`' note; the body still calls `needs`.
 */
export function skippedByName(name: ToolName | undefined): boolean {
  return name !== undefined && skippedTools().includes(name);
}

export function skipNote(name: ToolName | undefined): string {
  return skippedByName(name) ? ` (skipped: ${SKIP_NOTE}${name})` : '';
}
