/**
 * A kanban project inside a private claude world, and a scripted model that plays the role agents.
 * Agents run with `--json-schema`, so the model server classifies their requests as 'review' kind;
 * they are told apart here by the role prompt in the request, and answered with a StructuredOutput
 * tool call (or, to test the retry rule, with plain text).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cccBin, type ClaudeWorld } from '../support/claude-env.js';
import type { RecordedRequest, Reply } from '../support/model-server.js';
import type { ProcessResult } from '../support/run-process.js';

const NAG = '[structured-output-enforce]';

export interface AgentRequestInfo {
  role: 'Architect' | 'Manager' | 'Implementor' | 'Reviewer';
  /** `task_file` (workers) or `done_task` (Manager reconciliation) from the inputs block. */
  task?: string;
  reconcile: boolean;
  /** claude's own follow-up asking for the StructuredOutput tool after a text answer. */
  nag: boolean;
  /** A resumed Implementor told what the review found. */
  feedback: boolean;
}

/** Which agent a request comes from (by the role prompt's heading) and for which task. */
export function agentOf(request: RecordedRequest, reviewerMarker = 'REVIEW-RULES-7731'): AgentRequestInfo {
  const nag = request.lastUserText.includes(NAG);
  const feedback = request.lastUserText.includes('A review of your work on this task found it incomplete');
  if (request.lastUserText.includes(reviewerMarker)) return { role: 'Reviewer', reconcile: false, nag, feedback };
  const role = (['Architect', 'Manager', 'Implementor'] as const).find((r) => request.text.includes(`# Role: ${r}`));
  if (!role) throw new Error(`unrouted request: ${request.lastUserText.slice(0, 200)}`);
  const done = /"done_task": "([^"]+)"/.exec(request.text)?.[1];
  const task = done ?? /"task_file": "([^"]+)"/.exec(request.text)?.[1];
  return { role, ...(task === undefined ? {} : { task }), reconcile: done !== undefined, nag, feedback };
}

/** The model calling the StructuredOutput tool with `output`. */
export function answer(output: Record<string, unknown>): Reply {
  return { toolUse: { name: 'StructuredOutput', input: output } };
}

export interface ProjectFiles {
  [relativePath: string]: string;
}

export function writeProject(world: ClaudeWorld, files: ProjectFiles): void {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(world.cwd, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

export function task(title: string, role?: string): string {
  return `${role ? `---\nrole: ${role}\n---\n` : ''}# ${title}\n\nDo ${title}.\n\n## Work Log\n`;
}

/** Every file under the project with its bytes and mtime: "no file changed" is this, unchanged. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = `${fs.statSync(p).mtimeMs} ${fs.readFileSync(p, 'base64')}`;
    }
  };
  walk(dir);
  return out;
}

export function read(world: ClaudeWorld, name: string): string {
  return fs.readFileSync(path.join(world.cwd, name), 'utf8');
}

/** The first request of each agent run (not claude's nag follow-ups), in order. */
export function firstRequests(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((r) => r.kind === 'review' && !r.lastUserText.includes(NAG));
}

/** `ccc` started in the background, for tests that kill it half-way. */
export interface RunningCcc {
  child: ChildProcess;
  done: Promise<ProcessResult>;
}

export function startCcc(world: ClaudeWorld, args: string[], env: NodeJS.ProcessEnv = {}): RunningCcc {
  const child = spawn(process.execPath, [cccBin, ...args], { cwd: world.cwd, env: { ...world.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const done = new Promise<ProcessResult>((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
  return { child, done };
}
