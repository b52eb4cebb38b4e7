/**
 * Layer merging: plain objects merge key by key, everything else (arrays included) is replaced
 * by the higher layer; `undefined` never overrides. Each effective leaf remembers the layer it
 * came from, which is what `ccc config` shows and what validation errors name.
 */
import { defineOwn, getPath, leafKeys } from './key-path.js';
import { isPlainObject } from './rules.js';
import type { ConfigLayer } from './types.js';

export interface LayerInput {
  layer: ConfigLayer;
  config: Record<string, unknown>;
}

export interface MergeResult {
  merged: Record<string, unknown>;
  /** Dotted leaf path → the layer whose value won. */
  sources: Record<string, ConfigLayer>;
}

/** Merges layers given lowest precedence first. Inputs are not modified. */
export function mergeLayers(layers: readonly LayerInput[]): MergeResult {
  let merged: Record<string, unknown> = {};
  for (const { config } of layers) merged = mergeObjects(merged, config);
  return { merged, sources: sourcesOf(merged, layers) };
}

function mergeObjects(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) defineOwn(out, key, clone(value));
  for (const [key, value] of Object.entries(overlay)) {
    if (value === undefined) continue;
    const current = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    defineOwn(out, key, isPlainObject(current) && isPlainObject(value) ? mergeObjects(current, value) : clone(value));
  }
  return out;
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (isPlainObject(value)) return mergeObjects({}, value);
  return value;
}

/** The winner of a leaf is the highest layer that defines a value at that exact path. */
function sourcesOf(merged: Record<string, unknown>, layers: readonly LayerInput[]): Record<string, ConfigLayer> {
  const sources: Record<string, ConfigLayer> = {};
  for (const keys of leafKeys(merged)) {
    for (let i = layers.length - 1; i >= 0; i--) {
      if (getPath(layers[i]!.config, keys) !== undefined) {
        defineOwn(sources, keys.join('.'), layers[i]!.layer);
        break;
      }
    }
  }
  return sources;
}
