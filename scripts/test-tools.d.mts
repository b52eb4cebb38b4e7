// Types of scripts/test-tools.mjs, for the tests (test/support/tools.ts).
export interface Tool {
  name: string;
  probe?: string[];
  path?: string[];
  apt: string[];
  brew?: string[];
  why: string;
}
export interface Machine {
  apt: boolean;
  brew: boolean;
  root: boolean;
}
export const TOOLS: Tool[];
export const TOOL_NAMES: string[];
export function findTool(tool: Tool, env?: NodeJS.ProcessEnv): string | undefined;
export function skippedTools(env?: NodeJS.ProcessEnv): string[];
export function installLine(tools: Tool[], machine?: Machine): string;
export function thisMachine(): Machine;
