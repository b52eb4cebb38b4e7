/**
 * The three roles and the role table (docs/design/kanban.md, "Roles") that picks one for the current task.
 * Only the execute phase asks the task file: there the table's "Implementor" is the task header's
 * `role`, which defaults to Implementor.
 */
import type { Kanban } from './kanban-format.js';

export const ROLES = ['Architect', 'Manager', 'Implementor'] as const;
export type Role = (typeof ROLES)[number];

/** The role a header names, matched without regard to case; undefined when it names none. */
export function parseRole(value: string): Role | undefined {
  const wanted = value.trim().toLowerCase();
  return ROLES.find((role) => role.toLowerCase() === wanted);
}

/**
 * 004's table: design, validate and an execute review go to the Architect; plan goes to the
 * Manager; execute goes to the task header's role.
 */
export function routeRole(kanban: Pick<Kanban, 'phase' | 'sub_phase'>, taskRole: Role | undefined): Role {
  switch (kanban.phase) {
    case 'design':
    case 'validate':
      return 'Architect';
    case 'plan':
      return 'Manager';
    case 'execute':
      return kanban.sub_phase === 'review' ? 'Architect' : (taskRole ?? 'Implementor');
    case 'complete':
      // The loop stops before routing a complete kanban; routing it anyway is a bug upstream.
      throw new Error('routeRole called for a complete kanban');
  }
}
