import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { readSources, unexplainedUpwardImports } from '../../scripts/import-layers.mjs';

const check = (files: Record<string, string>): string[] => unexplainedUpwardImports(new Map(Object.entries(files)));
const lowModule = "import { CccError } from '../errors.js';\nexport const x = CccError;\n";

describe('the layer rule (docs/design/architecture.md, "Layers")', () => {
  it('holds for src/: every runtime import that goes up the layers says why', () => {
    expect(unexplainedUpwardImports(readSources(path.join(import.meta.dirname, '..', '..', 'src')))).toEqual([]);
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

  it('lets through type-only imports, leaves, downward imports and imports that say why', () => {
    expect(
      check({
        'errors.ts': 'export class CccError {}\n',
        'loop/a.ts': lowModule,
        'loop/leaf.ts': 'export const NAME = "x";\n',
        'stop/b.ts': [
          "import type { x } from '../loop/a.js';",
          "import { type x as y } from '../loop/a.js';",
          "import { NAME } from '../loop/leaf.js';",
          '// Up the layers: a reason given here,',
          '// over two lines.',
          "import { x as z } from '../loop/a.js';",
          "export const w = () => import('../loop/a.js'); // up the layers: said on the line",
          'export { NAME, z };',
        ].join('\n'),
        'cli/c.ts': "import { x } from '../loop/a.js';\nexport { x };\n",
      }),
    ).toEqual([]);
  });

  it('names a folder that has no layer', () => {
    expect(() => check({ 'newroom/a.ts': "import { x } from '../loop/a.js';\n", 'loop/a.ts': lowModule, 'errors.ts': '' })).toThrow(
      /folder "newroom" has no layer/,
    );
  });
});
