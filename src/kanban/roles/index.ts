/**
 * The starter role prompts that ship with ccc, as string constants so they are part of `dist`.
 * A project overrides any of them with `<roles_dir>/<Role>.md`.
 */
import type { Role } from '../role.js';
import { ARCHITECT_PROMPT } from './architect.js';
import { IMPLEMENTOR_PROMPT } from './implementor.js';
import { MANAGER_PROMPT } from './manager.js';

export const BUILT_IN_ROLE_PROMPTS: Readonly<Record<Role, string>> = {
  Architect: ARCHITECT_PROMPT,
  Manager: MANAGER_PROMPT,
  Implementor: IMPLEMENTOR_PROMPT,
};
