import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { importCycles, readSources, upwardImports } from '../../scripts/import-layers.mjs';

const check = (files: Record<string, string>): string[] => upwardImports(new Map(Object.entries(files)));
const cycles = (files: Record<string, string>): string[] => importCycles(new Map(Object.entries(files)));
const sources = (): Map<string, string> => readSources(path.join(import.meta.dirname, '..', '..', 'src'));
const lowModule = "import { CccError } from '../errors.js';\nexport const x = CccError;\n";

describe('the layer rule (docs/design/architecture.md, "Layers")', () => {
  it('holds for src/: no import goes up the layers, type-only included', () => {
    expect(upwardImports(sources())).toEqual([]);
  });

  it('holds for src/: no import cycles, type-only included', () => {
    expect(importCycles(sources())).toEqual([]);
  });

  it('errors.ts imports nothing of ccc, not even a type', () => {
    expect(sources().get('errors.ts')).not.toMatch(/from '\.\.?\//);
  });

  it('flags a static or dynamic runtime import of a higher layer', () => {
    const problems = check({
      'errors.ts': 'export class CccError {}\n',
      'loop/a.ts': lowModule,
      'stop/b.ts': "import { x } from '../loop/a.js';\nexport async function f() { return import('../loop/a.js'); }\nexport { x };\n",
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('src/stop/b.ts:1 imports ../loop/a.js');
    expect(problems[1]).toContain('src/stop/b.ts:2 imports ../loop/a.js');
  });

  it('flags a type-only import of a higher layer, in every form', () => {
    const problems = check({
      'errors.ts': 'export class CccError {}\n',
      'loop/a.ts': lowModule,
      'stop/b.ts': [
        "import type { x } from '../loop/a.js';",
        "import { type x as y } from '../loop/a.js';",
        "export type { x as z } from '../loop/a.js';",
        "export type W = import('../loop/a.js').X;",
      ].join('\n'),
    });
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('src/stop/b.ts:1 imports types from ../loop/a.js');
    expect(problems[3]).toContain('src/stop/b.ts:4 imports types from ../loop/a.js');
  });

  it('lets through leaves and downward imports', () => {
    expect(
      check({
        'errors.ts': 'export class CccError {}\n',
        'loop/a.ts': lowModule,
        'loop/leaf.ts': 'export const NAME = "x";\n',
        'stop/b.ts': ["import { NAME } from '../loop/leaf.js';", "import type { NAME as N } from '../loop/leaf.js';", 'export { NAME };'].join('\n'),
        'cli/c.ts': "import { x } from '../loop/a.js';\nexport { x };\n",
      }),
    ).toEqual([]);
  });

  it('flags an upward import whatever its comment says: there is no exception to ask for', () => {
    const problems = check({
      'errors.ts': 'export class CccError {}\n',
      'loop/a.ts': lowModule,
      'stop/b.ts': ['// Up the layers: a reason given here.', "import { x } from '../loop/a.js';", 'export { x };'].join('\n'),
    });
    expect(problems).toEqual([expect.stringContaining('src/stop/b.ts:2 imports ../loop/a.js (layer 2 → 4)')]);
  });

  it('a module that imports a type is no leaf: a type-only import of it up the layers is flagged', () => {
    const problems = check({
      'errors.ts': 'export class CccError {}\n',
      'loop/types.ts': "import type { CccError } from '../errors.js';\nexport type T = CccError;\n",
      'stop/b.ts': "import type { T } from '../loop/types.js';\nexport type U = T;\n",
    });
    expect(problems).toEqual([expect.stringContaining('src/stop/b.ts:1 imports types from ../loop/types.js (layer 2 → 4)')]);
  });

  it('finds a cycle made of type-only imports, names its shortest loop and the size of the knot', () => {
    expect(
      cycles({
        'errors.ts': "import type { Issue } from './config/validate.js';\nexport class CccError {}\n",
        'config/validate.ts': "import { CccError } from '../errors.js';\nexport type Issue = string;\n",
        'config/other.ts': "import { CccError } from '../errors.js';\nexport const o = CccError;\n",
        'cli/index.ts': "import { a } from './a.js';\nimport { b } from './b.js';\nexport type Register = () => void;\n",
        'cli/a.ts': "import type { Register } from './index.js';\nexport const a: Register = () => {};\n",
        'cli/b.ts': "import type { Register } from './index.js';\nexport const b: Register = () => {};\n",
        'cli/self.ts': "export type T = import('./self.js').U;\nexport type U = string;\n",
      }),
    ).toEqual([
      'import cycle: src/cli/a.ts → src/cli/index.ts → src/cli/a.ts (3 modules reach one another)',
      'import cycle: src/cli/self.ts → src/cli/self.ts',
      'import cycle: src/config/validate.ts → src/errors.ts → src/config/validate.ts',
    ]);
  });

  it('finds no cycle where imports only go one way', () => {
    expect(
      cycles({
        'errors.ts': 'export class CccError {}\n',
        'config/a.ts': "import type { CccError } from '../errors.js';\nexport type A = CccError;\n",
        'cli/b.ts': "import type { A } from '../config/a.js';\nimport { CccError } from '../errors.js';\nexport const b: A = new CccError();\n",
      }),
    ).toEqual([]);
  });

  it('names a folder that has no layer', () => {
    expect(() => check({ 'newroom/a.ts': "import { x } from '../loop/a.js';\n", 'loop/a.ts': lowModule, 'errors.ts': '' })).toThrow(
      /folder "newroom" has no layer/,
    );
  });
});
