/**
 * The RxJS classes ccc uses, each from its own module. `import … from 'rxjs'` resolves (export
 * condition "node") to RxJS's CommonJS index, which loads every operator, several times what one class
 * module costs (bench/results/2026-11-27-import-costs.md), paid by every ccc start and every
 * standalone Stop hook.
 * The missing public API: RxJS 7 has no public entry per class, only `rxjs` (and
 * `rxjs/operators`), each loading everything. The public way (every import of this
 * module from 'rxjs') delays the claude prompt (bench/results/2026-11-24-public-rxjs.md), since the relay's streams load right after the spawn,
 * while claude starts. The `rxjs/internal/*` subpaths are in its exports
 * map, typed. Classes are the same ones the index exports (it re-exports these files), so mixing
 * is safe; test/rx.test.ts pins both that and the unloaded index, so an upgrade that moves them fails there.
 */
export { Observable } from 'rxjs/internal/Observable';
export { ReplaySubject } from 'rxjs/internal/ReplaySubject';
export { Subject } from 'rxjs/internal/Subject';
