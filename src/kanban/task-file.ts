/**
 * Task files: Markdown with an optional YAML front-matter header (`role: Architect|Manager|
 * Implementor`, default Implementor) and a `## Work Log` section that agents append to. ccc only
 * reads the header; the body belongs to the agents.
 */
import YAML from 'yaml';
import { CccError, errorText } from '../errors.js';
import type { FileRef } from './kanban-file.js';
import { readText } from './read-text.js';
import { parseRole, ROLES, type Role } from './role.js';

export interface TaskHeader {
  /** The header's `role`; undefined when the file has no header or the header names none. */
  role?: Role;
  /** Every key of the header, for agents and tests; ccc itself reads only `role`. */
  fields: Record<string, unknown>;
}

/** `---` on the first line opens the header, the next `---` (or `...`) line closes it. */
const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/** Throws CccError KANBAN_INVALID (exit 2) naming `file` and what is wrong. */
export function parseTaskHeader(text: string, file: string): TaskHeader {
  const opening = OPENING.exec(text);
  if (!opening) return { fields: {} };
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw invalidTask(file, 'opens a front-matter header with --- on its first line but never closes it with a --- line');
  const doc = YAML.parseDocument(rest.slice(0, closing.index), { prettyErrors: true });
  const error = doc.errors[0];
  if (error) throw invalidTask(file, `has a front-matter header that is not valid YAML (${error.message.split('\n')[0]})`);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw invalidTask(file, `has a front-matter header that cannot be read (${errorText(cause)})`);
  }
  if (value === null || value === undefined) return { fields: {} };
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidTask(file, 'has a front-matter header that is not a set of key: value lines');
  const fields = value as Record<string, unknown>;
  if (fields.role === undefined || fields.role === null) return { fields };
  const role = typeof fields.role === 'string' ? parseRole(fields.role) : undefined;
  if (!role) {
    throw invalidTask(
      file,
      `names the unknown role ${JSON.stringify(fields.role)} in its header; use one of ${ROLES.join(', ')} (or leave role out for Implementor)`,
    );
  }
  return { role, fields };
}

/** Reads and parses a task file; `owner` says which kanban entry named it, for the message. */
export async function readTaskHeader(ref: FileRef, owner: string): Promise<TaskHeader> {
  const text = await readText(
    ref,
    (problem, cause) =>
      new CccError(
        'KANBAN_INVALID',
        `The task file ${ref.display} (${owner}) ${problem}. Create it, or change the kanban file to name an existing task file.`,
        {
          cause,
          data: { file: ref.display },
        },
      ),
  );
  return parseTaskHeader(text, ref.display);
}

function invalidTask(file: string, problem: string): CccError {
  return new CccError('KANBAN_INVALID', `The task file ${file} ${problem}. Fix the file and run ccc kanban again.`, { data: { file } });
}
