/** Layer merging: deep for objects, replace for arrays and scalars, sources per leaf; fuzzed. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getPath, leafKeys } from '../../src/config/key-path.js';
import { mergeLayers, type LayerInput } from '../../src/config/merge.js';
import { isPlainObject } from '../../src/config/rules.js';
import type { ConfigLayer } from '../../src/config/types.js';

const LAYERS: ConfigLayer[] = ['default', 'global', 'project', 'env', 'flag'];

// Few keys so layers collide often; `__proto__` and dotted keys to catch unsafe writes.
const key = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor', 'x.y');
const scalar = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null));
const tree = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, fc.array(scalar, { maxLength: 3 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }).map(ownCopy),
})).object;

/** fc.dictionary may produce `__proto__` as a real prototype; rebuild with own properties only. */
function ownCopy(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(input)) Object.defineProperty(out, k, { value: input[k], enumerable: true, writable: true, configurable: true });
  return out;
}

const layersArb = fc.array(tree, { minLength: 1, maxLength: 5 }).map((configs) => configs.map((config, i): LayerInput => ({ layer: LAYERS[i]!, config })));

describe('mergeLayers', () => {
  it('merges objects deeply and replaces arrays', () => {
    const { merged, sources } = mergeLayers([
      { layer: 'default', config: { s: { a: 1, b: [1, 2], c: { d: 1 } } } },
      { layer: 'project', config: { s: { b: [3], c: { e: 2 } } } },
      { layer: 'flag', config: { s: { a: undefined } } },
    ]);
    expect(merged).toEqual({ s: { a: 1, b: [3], c: { d: 1, e: 2 } } });
    expect(sources).toEqual({ 's.a': 'default', 's.b': 'project', 's.c.d': 'default', 's.c.e': 'project' });
  });

  it('fuzz: every effective leaf equals the value of the highest layer that defines it, and its source says so', () => {
    fc.assert(
      fc.property(layersArb, (layers) => {
        const { merged, sources } = mergeLayers(layers);
        for (const keys of leafKeys(merged)) {
          const winner = [...layers].reverse().find((l) => getPath(l.config, keys) !== undefined)!;
          const value = getPath(merged, keys);
          if (!(isPlainObject(value) && Object.keys(value).length === 0)) expect(value).toEqual(getPath(winner.config, keys));
          expect(sources[keys.join('.')]).toBe(winner.layer);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fuzz: every leaf of the top layer survives, the inputs are untouched, no prototype is polluted', () => {
    fc.assert(
      fc.property(layersArb, (layers) => {
        const before = JSON.stringify(layers.map((l) => l.config));
        const { merged } = mergeLayers(layers);
        const top = layers[layers.length - 1]!.config;
        for (const keys of leafKeys(top)) {
          const value = getPath(top, keys);
          // An empty object adds nothing to what lower layers put there.
          if (isPlainObject(value) && Object.keys(value).length === 0) expect(isPlainObject(getPath(merged, keys))).toBe(true);
          else expect(getPath(merged, keys)).toEqual(value);
        }
        expect(JSON.stringify(layers.map((l) => l.config))).toBe(before);
        expect(({} as Record<string, unknown>).a).toBeUndefined();
        expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
      }),
      { numRuns: 300 },
    );
  });
});
