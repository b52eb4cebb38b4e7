/** Task file headers and the role table; the header parser fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { isCccError } from '../../src/errors.js';
import { parseTaskHeader } from '../../src/kanban/task-file.js';
import { ROLES, routeRole, type Role } from '../../src/kanban/role.js';

function errorOf(run: () => unknown): Error | undefined {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  return undefined;
}

describe('parseTaskHeader', () => {
  it('reads the role of the front matter, without regard to case', () => {
    expect(parseTaskHeader('---\nrole: architect\ntitle: Design\n---\n# Design\n', 't.md')).toEqual({
      role: 'Architect',
      fields: { role: 'architect', title: 'Design' },
    });
    expect(parseTaskHeader('\uFEFF---\r\nrole: Manager\r\n---\r\nbody', 't.md').role).toBe('Manager');
    expect(parseTaskHeader('---\nrole: Implementor\n...\nbody', 't.md').role).toBe('Implementor');
  });

  it('has no role without a header, with an empty header or without a role key', () => {
    expect(parseTaskHeader('# Task\n\n---\nrole: Architect\n---\n', 't.md')).toEqual({ fields: {} });
    expect(parseTaskHeader('---\n---\n# Task', 't.md')).toEqual({ fields: {} });
    expect(parseTaskHeader('---\nowner: me\nrole: null\n---\n', 't.md')).toEqual({ fields: { owner: 'me', role: null } });
    expect(parseTaskHeader('', 't.md')).toEqual({ fields: {} });
  });

  it.each([
    ['---\nrole: Tester\n---\n', /The task file tasks\/t\.md names the unknown role "Tester" in its header; use one of Architect, Manager, Implementor/],
    ['---\nrole: [Architect]\n---\n', /names the unknown role \["Architect"\]/],
    ['---\nrole: Architect\n# never closed\n', /opens a front-matter header with --- on its first line but never closes it/],
    ['---\nrole: [unclosed\n---\n', /has a front-matter header that is not valid YAML/],
    ['---\n- a\n- b\n---\n', /has a front-matter header that is not a set of key: value lines/],
  ])('rejects %j, naming the file', (text, message) => {
    const error = errorOf(() => parseTaskHeader(text, 'tasks/t.md'));
    expect(isCccError(error) && error.code === 'KANBAN_INVALID' && error.exitCode).toBe(2);
    expect(error!.message).toMatch(message);
  });

  it('reads any role back from a generated header, whatever the body holds', () => {
    const body = fc.string().map((s) => `# Task\n${s}\n---\nrole: Tester\n---\n`);
    const casing = fc.constantFrom(
      (s: string) => s,
      (s: string) => s.toLowerCase(),
      (s: string) => s.toUpperCase(),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLES),
        casing,
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.jsonValue({ maxDepth: 1 })),
        body,
        (role, caseOf, extra, rest) => {
          const header = YAML.stringify({ ...extra, role: caseOf(role) });
          expect(parseTaskHeader(`---\n${header}---\n${rest}`, 't.md').role).toBe(role);
        },
      ),
    );
  });

  it('fails only with KANBAN_INVALID on arbitrary text', () => {
    const text = fc.oneof(
      fc.string(),
      fc.string().map((s) => `---\n${s}`),
      fc.string().map((s) => `---\n${s}\n---\n`),
      fc.jsonValue().map((v) => `---\n${YAML.stringify(v)}---\n`),
    );
    fc.assert(
      fc.property(text, (t) => {
        const error = errorOf(() => parseTaskHeader(t, 't.md'));
        if (error) expect(isCccError(error) && error.code).toBe('KANBAN_INVALID');
      }),
      { numRuns: 500 },
    );
  });
});

describe('routeRole (the role table of docs/design/kanban.md)', () => {
  it.each<[string, 'review' | undefined, Role | undefined, Role]>([
    ['design', undefined, 'Implementor', 'Architect'],
    ['plan', undefined, undefined, 'Manager'],
    ['execute', 'review', 'Implementor', 'Architect'],
    ['execute', undefined, undefined, 'Implementor'],
    ['execute', undefined, 'Architect', 'Architect'],
    ['execute', undefined, 'Manager', 'Manager'],
    ['validate', undefined, 'Implementor', 'Architect'],
  ])('phase %s, sub_phase %s, header role %s: %s', (phase, subPhase, header, role) => {
    expect(routeRole({ phase: phase as 'design', ...(subPhase ? { sub_phase: subPhase } : {}) }, header)).toBe(role);
  });
});
