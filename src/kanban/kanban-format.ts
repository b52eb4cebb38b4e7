/**
 * The kanban file (docs/design/kanban.md): the source of truth of a workflow, in JSON or YAML.
 * `parseKanban` validates the whole shape once and names the file and the key in every error;
 * `updateKanbanText` changes only the keys ccc owns and keeps everything else the user or the
 * Manager wrote (other keys, key order, YAML comments), so a rewrite never loses information.
 */
import YAML from 'yaml';
import { CccError, errorText } from '../errors.js';
import { clip, jsonText } from '../value-text.js';

export const KANBAN_PHASES = ['design', 'plan', 'execute', 'validate', 'complete'] as const;
export type KanbanPhase = (typeof KANBAN_PHASES)[number];
export type KanbanFormat = 'json' | 'yaml';

export interface Kanban {
  phase: KanbanPhase;
  sub_phase?: 'review';
  /** The task file to work on (relative to the kanban file's directory), or null: nothing to do. */
  current: string | null;
  tasks: string[];
  /**
   * Written by ccc when `current` succeeded and only the Manager's reconciliation is still due,
   * removed once the Manager's answer is persisted: a rerun after a crash then goes straight to
   * the Manager instead of doing the task twice.
   */
  done_task?: string;
}

/** What ccc writes back. `done_task: null` removes the key. */
export interface KanbanChanges {
  phase?: KanbanPhase;
  current?: string | null;
  tasks?: string[];
  done_task?: string | null;
}

/** `.json` is JSON, `.yaml`/`.yml` YAML; any other name is JSON when it looks like it, else YAML. */
export function kanbanFormatOf(file: string, text: string): KanbanFormat {
  if (/\.json$/i.test(file)) return 'json';
  if (/\.ya?ml$/i.test(file)) return 'yaml';
  return text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{')
    ? 'json'
    : 'yaml';
}

/** Throws CccError KANBAN_INVALID (exit 2) naming `file` and what is wrong. */
export function parseKanban(text: string, format: KanbanFormat, file: string): Kanban {
  return validateKanban(format === 'json' ? parseJson(text, file) : parseYaml(text, file), file);
}

export function updateKanbanText(text: string, format: KanbanFormat, changes: KanbanChanges): string {
  return format === 'json' ? updateJson(text, changes) : updateYaml(text, changes);
}

/** A fresh kanban file's text (the README example, tests). */
export function formatKanban(kanban: Kanban, format: KanbanFormat): string {
  return format === 'json' ? `${JSON.stringify(kanban, null, 2)}\n` : YAML.stringify(kanban, { lineWidth: 0 });
}

function invalid(file: string, problem: string): CccError {
  return new CccError(
    'KANBAN_INVALID',
    `The kanban file ${file} ${problem}. Fix it (the format is in docs/kanban.md of ccc's package) and run ccc kanban again.`,
    { data: { file } },
  );
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw invalid(file, `is not valid JSON (${errorText(error)})`);
  }
}

function parseYaml(text: string, file: string): unknown {
  const doc = YAML.parseDocument(text, { prettyErrors: true });
  const first = doc.errors[0];
  if (first) throw invalid(file, `is not valid YAML (${first.message.split('\n')[0]})`);
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw invalid(file, `cannot be read as YAML (${errorText(error)})`);
  }
}

function validateKanban(value: unknown, file: string): Kanban {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(file, `must hold an object with phase, current and tasks (found ${describe(value)})`);
  }
  const raw = value as Record<string, unknown>;
  const phase = raw.phase;
  if (!KANBAN_PHASES.includes(phase as KanbanPhase)) {
    throw invalid(file, `has ${raw.phase === undefined ? 'no phase' : `phase ${describe(phase)}`}; use one of ${KANBAN_PHASES.join(', ')}`);
  }
  if (raw.sub_phase !== undefined && raw.sub_phase !== null && raw.sub_phase !== 'review') {
    throw invalid(file, `has sub_phase ${describe(raw.sub_phase)}; the only sub-phase is "review" (or leave it out)`);
  }
  if (!('current' in raw)) throw invalid(file, 'has no current: set it to the task file to work on, or null when there is none');
  if (raw.current !== null && !isPath(raw.current)) throw invalid(file, `has current ${describe(raw.current)}; it must be a task file path or null`);
  if (!Array.isArray(raw.tasks))
    throw invalid(file, `has ${raw.tasks === undefined ? 'no tasks' : `tasks ${describe(raw.tasks)}`}; it must be a list of task file paths`);
  raw.tasks.forEach((task, index) => {
    if (!isPath(task)) throw invalid(file, `has tasks[${index}] ${describe(task)}; every task must be a task file path`);
  });
  if (raw.done_task !== undefined && raw.done_task !== null && !isPath(raw.done_task)) {
    throw invalid(file, `has done_task ${describe(raw.done_task)}; ccc writes a task file path there (remove the key to start the task again)`);
  }
  return {
    phase: phase as KanbanPhase,
    ...(raw.sub_phase === 'review' ? { sub_phase: 'review' as const } : {}),
    current: raw.current,
    tasks: [...(raw.tasks as string[])],
    ...(isPath(raw.done_task) ? { done_task: raw.done_task } : {}),
  };
}

function isPath(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && !value.includes('\0');
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  return clip(jsonText(value), 61);
}

function updateJson(text: string, changes: KanbanChanges): string {
  const raw = JSON.parse(text.replace(/^\uFEFF/, '')) as Record<string, unknown>;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (key === 'done_task' && value === null) delete raw[key];
    else raw[key] = value;
  }
  const indent = /^\{\s*\n([ \t]+)"/.exec(text.replace(/^\uFEFF/, ''))?.[1] ?? '  ';
  return `${JSON.stringify(raw, null, indent)}\n`;
}

function updateYaml(text: string, changes: KanbanChanges): string {
  const doc = YAML.parseDocument(text);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (key === 'done_task' && value === null) doc.delete(key);
    else setKeepingComments(doc, key, value as string | string[] | null);
  }
  // lineWidth 0: never fold a long path onto two lines.
  return doc.toString({ lineWidth: 0 });
}

/**
 * A comment belongs to the node it follows (`phase: execute  # why`): replacing the node would
 * drop it. So a scalar gets its new value in place, and a list keeps the nodes of the entries it
 * still has (with their comments) and gains new nodes for new entries.
 */
function setKeepingComments(doc: YAML.Document, key: string, value: string | string[] | null): void {
  const node = doc.get(key, true);
  if (YAML.isScalar(node) && !Array.isArray(value)) {
    if (typeof node.value !== typeof value || node.value === null || value === null) {
      // A style or tag chosen for the old value may not fit the new one (`!!str`, a block scalar).
      delete node.tag;
      node.type = undefined;
    }
    node.value = value;
    return;
  }
  if (YAML.isSeq(node) && Array.isArray(value)) {
    const unused = [...node.items];
    node.items = value.map((entry) => {
      const index = unused.findIndex((item) => YAML.isScalar(item) && item.value === entry);
      return index < 0 ? doc.createNode(entry) : unused.splice(index, 1)[0];
    });
    return;
  }
  doc.set(key, doc.createNode(value));
}
