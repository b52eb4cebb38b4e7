/**
 * The RxJS classes ccc uses, each from its own module. `import … from 'rxjs'` resolves (export
 * condition "node") to RxJS's CommonJS index, which loads every operator: about 85 ms of CPU on
 * the bench machine, 0.7× a whole `node -e 0`, paid by every ccc start and every standalone Stop
 * hook (`npm run bench`: the hook with a trivial rule checker went from 3.4× to 2.7× the floor).
 * The `rxjs/internal/*` subpaths are in RxJS 7's exports map, typed; check them on an upgrade.
 * Classes are the same ones the index exports (it re-exports these files), so mixing is safe.
 */
export { Observable } from 'rxjs/internal/Observable';
export { ReplaySubject } from 'rxjs/internal/ReplaySubject';
export { Subject } from 'rxjs/internal/Subject';
