/**
 * The RxJS classes ccc uses, each from its own module. `import … from 'rxjs'` resolves (export
 * condition "node") to RxJS's CommonJS index, which loads every operator: about 85 ms of CPU on
 * the bench machine, 0.7× a whole `node -e 0`, paid by every ccc start and every standalone Stop
 * hook (`npm run bench`: the hook with a trivial rule checker went from 3.4× to 2.7× the floor).
 * The missing public API: RxJS 7 has no public entry per class, only `rxjs` (and
 * `rxjs/operators`), each loading everything. Measured the public way (every import of this
 * module from 'rxjs'), alternating with this build in one run: the claude prompt 851 against 733 ms
 * (bench/results/2026-11-24-public-rxjs.md), since the relay's streams load right after the spawn,
 * while claude starts. The `rxjs/internal/*` subpaths are in its exports
 * map, typed. Classes are the same ones the index exports (it re-exports these files), so mixing
 * is safe; test/rx.test.ts pins both that and the unloaded index, so an upgrade that moves them fails there.
 */
export { Observable } from 'rxjs/internal/Observable';
export { ReplaySubject } from 'rxjs/internal/ReplaySubject';
export { Subject } from 'rxjs/internal/Subject';
