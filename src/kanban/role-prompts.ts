/**
 * Role prompts: `<roles_dir>/<Role>.md` from the project when it has one (the file name matched
 * without regard to case), else the starter prompt that ships with ccc. All three are loaded once
 * at the start, so a bad prompt file is an error before any agent runs, and a retry always sends
 * the very same prompt.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ConfigLayer } from '../config/types.js';
import { CccError, errorText } from '../errors.js';
import { fileRef, type FileRef } from './kanban-file.js';
import { readText } from './read-text.js';
import { ROLES, type Role } from './role.js';
import { BUILT_IN_ROLE_PROMPTS } from './roles/index.js';

export interface RolePrompt {
  text: string;
  /** The file it came from (as shown to the user), or `built-in`. */
  source: string;
}

export type RolePrompts = Readonly<Record<Role, RolePrompt>>;

export interface LoadRolePromptsOptions {
  /** `kanban.roles_dir`, relative to `cwd`. */
  rolesDir: string;
  cwd: string;
  /**
   * Where `roles_dir` came from: a directory the user named (anything but the default) must exist,
   * and the error says how to undo that very setting.
   */
  setBy: ConfigLayer;
  /** `trusted_dirs`: where else a prompt may really be (its text goes to the model). */
  trusted: readonly string[];
}

const UNDO: Record<Exclude<ConfigLayer, 'default'>, string> = {
  flag: 'leave out --roles-dir',
  env: 'unset the environment variable that sets kanban.roles_dir',
  project: 'remove kanban.roles_dir from the project config file (ccc config shows which)',
  global: 'remove kanban.roles_dir from the global ccc.json',
};

export async function loadRolePrompts(options: LoadRolePromptsOptions): Promise<RolePrompts> {
  const dir = fileRef(options.rolesDir, options.cwd);
  const names = await listDir(dir.path);
  if (names === undefined && options.setBy !== 'default') {
    const named = options.setBy === 'flag' ? '--roles-dir' : 'kanban.roles_dir';
    throw new CccError(
      'CONFIG_INVALID',
      `The roles directory ${dir.display} (${named}) does not exist. Create it with Architect.md, Manager.md and Implementor.md, or ${UNDO[options.setBy]} to use the built-in role prompts.`,
      { data: { key: 'kanban.roles_dir', value: options.rolesDir } },
    );
  }
  // A prompt is read from the project, or from the directory the user named (not the project's config).
  const userNamed = options.setBy !== 'default' && options.setBy !== 'project';
  const within = [...(userNamed ? [dir.path] : []), options.cwd, ...options.trusted];
  const prompts = {} as Record<Role, RolePrompt>;
  for (const role of ROLES) {
    const name = names?.find((n) => n.toLowerCase() === `${role.toLowerCase()}.md`);
    prompts[role] =
      name === undefined
        ? { text: BUILT_IN_ROLE_PROMPTS[role], source: 'built-in' }
        : await readPrompt(fileRef(path.join(dir.path, name), options.cwd), role, within);
  }
  return prompts;
}

async function listDir(dir: string): Promise<string[] | undefined> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CccError('CONFIG_INVALID', `The roles directory ${dir} (kanban.roles_dir) cannot be read: ${errorText(error)}.`, { cause: error });
  }
}

async function readPrompt(ref: FileRef, role: Role, within: readonly string[]): Promise<RolePrompt> {
  const text = await readText(
    ref,
    (problem, cause) => new CccError('KANBAN_INVALID', `The ${role} prompt ${ref.display} ${problem}.`, { cause, data: { file: ref.display } }),
    { within },
  );
  if (text.trim() === '') {
    throw new CccError(
      'KANBAN_INVALID',
      `The ${role} prompt ${ref.display} is empty. Write the role's instructions into it, or delete it to use the built-in prompt.`,
      {
        data: { file: ref.display },
      },
    );
  }
  return { text, source: ref.display };
}
