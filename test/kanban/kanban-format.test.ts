/** The kanban file parser and writer: clear errors for bad input, lossless rewrites; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { isCccError } from '../../src/errors.js';
import {
  formatKanban,
  KANBAN_PHASES,
  kanbanFormatOf,
  parseKanban,
  updateKanbanText,
  type Kanban,
  type KanbanChanges,
  type KanbanFormat,
} from '../../src/kanban/kanban-format.js';

const BOMB = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...['b', 'c', 'd', 'e'].map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcd'[i]}`).join(', ')}]`),
  'phase: execute',
].join('\n');
const formats: KanbanFormat[] = ['json', 'yaml'];
/** Paths as people write them, plus the characters that are special in YAML or JSON. */
const taskPath = fc
  .oneof(
    fc.stringMatching(/^tasks\/[a-z0-9-]{1,12}\.md$/),
    fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '' && !s.includes('\0')),
    fc.constantFrom('- dash.md', 'a: b.md', '#hash.md', '"quoted".md', 'null', 'true', '123', 'ünï cødé.md', '  padded.md  '),
  )
  .filter((s) => s.trim() !== '');
const kanbanArb: fc.Arbitrary<Kanban> = fc.record(
  {
    phase: fc.constantFrom(...KANBAN_PHASES),
    sub_phase: fc.constant('review' as const),
    current: fc.option(taskPath, { nil: null }),
    tasks: fc.array(taskPath, { maxLength: 5 }),
    done_task: taskPath,
  },
  { requiredKeys: ['phase', 'current', 'tasks'] },
);
const changesArb: fc.Arbitrary<KanbanChanges> = fc.record(
  {
    phase: fc.constantFrom(...KANBAN_PHASES),
    current: fc.option(taskPath, { nil: null }),
    tasks: fc.array(taskPath, { maxLength: 5 }),
    done_task: fc.option(taskPath, { nil: null }),
  },
  { requiredKeys: [] },
);

/** Valid input may parse; anything else must be our clear error, never a crash. */
function expectOnlyKanbanErrors(run: () => unknown, file: string): void {
  try {
    run();
  } catch (error) {
    expect(isCccError(error) && error.code === 'KANBAN_INVALID' && error.exitCode === 2).toBe(true);
    expect((error as Error).message).toContain(`The kanban file ${file} `);
    return;
  }
}

describe('parseKanban', () => {
  it('reads the documented shape in JSON and YAML', () => {
    const yaml = 'phase: execute\nsub_phase: review\ncurrent: tasks/a.md\ntasks:\n  - tasks/a.md\n  - tasks/b.md\n';
    expect(parseKanban(yaml, 'yaml', 'k.yaml')).toEqual({ phase: 'execute', sub_phase: 'review', current: 'tasks/a.md', tasks: ['tasks/a.md', 'tasks/b.md'] });
    expect(parseKanban('{"phase":"design","current":null,"tasks":[]}', 'json', 'k.json')).toEqual({ phase: 'design', current: null, tasks: [] });
  });

  it.each([
    ['{"phase":"execute","current":null,"tasks":[]', 'json', /is not valid JSON/],
    ['phase: execute\ncurrent: [a\n', 'yaml', /is not valid YAML/],
    ['- a\n- b\n', 'yaml', /must hold an object with phase, current and tasks \(found a list\)/],
    ['', 'yaml', /must hold an object .* \(found null\)/],
    ['current: null\ntasks: []\n', 'yaml', /has no phase; use one of design, plan, execute, validate, complete/],
    ['phase: Execute\ncurrent: null\ntasks: []\n', 'yaml', /has phase "Execute"/],
    ['phase: execute\nsub_phase: qa\ncurrent: null\ntasks: []\n', 'yaml', /has sub_phase "qa"; the only sub-phase is "review"/],
    ['phase: execute\ntasks: []\n', 'yaml', /has no current: set it to the task file to work on, or null/],
    ['phase: execute\ncurrent: 7\ntasks: []\n', 'yaml', /has current 7; it must be a task file path or null/],
    ['phase: execute\ncurrent: ""\ntasks: []\n', 'yaml', /has current ""/],
    ['phase: execute\ncurrent: null\n', 'yaml', /has no tasks; it must be a list of task file paths/],
    ['phase: execute\ncurrent: null\ntasks: a.md\n', 'yaml', /has tasks "a.md"; it must be a list/],
    ['phase: execute\ncurrent: null\ntasks: [a.md, {x: 1}]\n', 'yaml', /has tasks\[1\] \{"x":1\}; every task must be a task file path/],
    ['phase: execute\ncurrent: null\ncurrent: a.md\ntasks: []\n', 'yaml', /is not valid YAML \(Map keys must be unique/],
    ['a: &a [x]\nb: [*a, *a, *a, *a]\nphase: execute\n', 'yaml', /has no current/],
    [BOMB, 'yaml', /cannot be read as YAML \(Excessive alias count/],
  ] as const)('rejects %j with a message naming the file and the problem', (text, format, message) => {
    let caught: unknown;
    try {
      parseKanban(text, format, 'board/kanban.x');
    } catch (error) {
      caught = error;
    }
    expect(isCccError(caught) && caught.code).toBe('KANBAN_INVALID');
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toMatch(
      /^The kanban file board\/kanban\.x .*Fix it \(the format is in docs\/kanban\.md of ccc's package\) and run ccc kanban again\.$/,
    );
  });

  it('fails only with KANBAN_INVALID on arbitrary input, in both formats', () => {
    const input = fc.oneof(
      fc.string(),
      fc.json(),
      fc.jsonValue().map((v) => YAML.stringify(v)),
      fc.string().map((s) => `phase: execute\ncurrent: ${s}\ntasks: [${s}]\n`),
    );
    fc.assert(
      fc.property(input, fc.constantFrom(...formats), (text, format) => {
        expectOnlyKanbanErrors(() => parseKanban(text, format, 'k'), 'k');
      }),
      { numRuns: 500 },
    );
  });

  it('reads back every valid kanban it formats', () => {
    fc.assert(
      fc.property(kanbanArb, fc.constantFrom(...formats), (kanban, format) => {
        expect(parseKanban(formatKanban(kanban, format), format, 'k')).toEqual(kanban);
      }),
    );
  });

  it('picks the format by extension, else by content', () => {
    expect(kanbanFormatOf('a/k.JSON', 'x: 1')).toBe('json');
    expect(kanbanFormatOf('k.yml', '{}')).toBe('yaml');
    expect(kanbanFormatOf('KANBAN', '\uFEFF  {"phase": 1}')).toBe('json');
    expect(kanbanFormatOf('KANBAN', 'phase: plan')).toBe('yaml');
  });
});

describe('updateKanbanText', () => {
  it('applies the changes and keeps every other key, in both formats', () => {
    const extra = fc.dictionary(fc.stringMatching(/^x_[a-z]{1,6}$/), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    fc.assert(
      fc.property(kanbanArb, extra, changesArb, fc.constantFrom(...formats), (kanban, others, changes, format) => {
        const before = formatKanban({ ...kanban, ...others }, format);
        const after = updateKanbanText(before, format, changes);
        const expected: Record<string, unknown> = { ...kanban };
        for (const [key, value] of Object.entries(changes)) {
          if (key === 'done_task' && value === null) delete expected.done_task;
          else expected[key] = value;
        }
        expect(parseKanban(after, format, 'k')).toEqual(expected);
        const raw = (format === 'json' ? JSON.parse(after) : YAML.parse(after)) as Record<string, unknown>;
        // Each other key as its format holds it (JSON has no -0; YAML keeps it).
        const held = (value: unknown) => (format === 'json' ? JSON.parse(JSON.stringify(value)) : YAML.parse(YAML.stringify(value)));
        for (const [key, value] of Object.entries(others)) expect(raw[key]).toEqual(held(value));
      }),
    );
  });

  it('keeps YAML comments and JSON indentation', () => {
    const yaml = '# workflow of the parser\nphase: execute # being built\ncurrent: a.md\ntasks:\n  - a.md # first\n';
    const updated = updateKanbanText(yaml, 'yaml', { current: null, done_task: 'a.md' });
    expect(updated).toContain('# workflow of the parser');
    expect(updated).toContain('phase: execute # being built');
    expect(YAML.parse(updated)).toEqual({ phase: 'execute', current: null, tasks: ['a.md'], done_task: 'a.md' });
    const json = '{\n    "phase": "plan",\n    "current": "a.md",\n    "tasks": []\n}\n';
    expect(updateKanbanText(json, 'json', { tasks: ['a.md'], done_task: null })).toBe(
      '{\n    "phase": "plan",\n    "current": "a.md",\n    "tasks": [\n        "a.md"\n    ]\n}\n',
    );
  });

  it('keeps the comment on every line it rewrites, and on every list entry that stays', () => {
    fc.assert(
      fc.property(kanbanArb, changesArb, fc.constantFrom('plain', 'quoted'), (kanban, changes, style) => {
        // Every value and every list entry with its own inline comment.
        const doc = new YAML.Document(kanban);
        for (const pair of (doc.contents as YAML.YAMLMap<YAML.Scalar<string>, YAML.Node>).items) {
          const key = pair.key.value;
          if (YAML.isScalar(pair.value)) {
            pair.value.comment = ` c-${key}`;
            if (style === 'quoted' && typeof pair.value.value === 'string') pair.value.type = 'QUOTE_DOUBLE';
          }
          if (YAML.isSeq(pair.value)) pair.value.items.forEach((item, index) => ((item as YAML.Scalar).comment = ` c-item-${index}`));
        }
        const before = doc.toString({ lineWidth: 0 });
        const after = updateKanbanText(before, 'yaml', changes);

        const expected: Record<string, unknown> = { ...kanban };
        for (const [key, value] of Object.entries(changes)) {
          if (key === 'done_task' && value === null) delete expected.done_task;
          else expected[key] = value;
        }
        expect(parseKanban(after, 'yaml', 'k')).toEqual(expected);
        for (const key of Object.keys(kanban)) {
          if (key === 'tasks' || (key === 'done_task' && changes.done_task === null)) continue;
          expect(after).toContain(`# c-${key}`);
        }
        kanban.tasks.forEach((task, index) => {
          const unique = kanban.tasks.filter((t) => t === task).length === 1;
          if (unique && (changes.tasks === undefined || changes.tasks.includes(task))) expect(after).toContain(`# c-item-${index}`);
        });
      }),
    );
  });

  it('keeps the comments of the docs/kanban.md example when the workflow completes', () => {
    const readme = [
      'phase: execute          # design | plan | execute | validate | complete',
      'current: tasks/002-parser.md   # the task to work on; null = nothing to do',
      "tasks:                  # every task file, relative to the kanban file's directory",
      '  - tasks/001-design.md',
      '  - tasks/002-parser.md  # the parser',
      '',
    ].join('\n');
    const done = updateKanbanText(readme, 'yaml', { phase: 'complete', current: null, tasks: ['tasks/001-design.md', 'tasks/002-parser.md'], done_task: null });
    expect(done).toContain('phase: complete # design | plan | execute | validate | complete\n');
    expect(done).toContain('current: null # the task to work on; null = nothing to do\n');
    expect(done).toContain("# every task file, relative to the kanban file's directory");
    expect(done).toContain('  - tasks/002-parser.md # the parser\n');
  });

  it('never folds a long path onto two lines', () => {
    const long = `tasks/${'very-long-name-'.repeat(10)}.md`;
    const updated = updateKanbanText('phase: execute\ncurrent: null\ntasks: []\n', 'yaml', { current: long, tasks: [long] });
    expect(updated.split('\n').filter((l) => l.includes(long))).toHaveLength(2);
  });
});
