// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Modules that may import the RxJS index: each loads after the agent's spawn, or in headless mode, which loads it before its first turn by design. */
const AFTER_SPAWN_RXJS = ['src/loop/agent-frames.ts'];
const RXJS_INDEX = {
  name: 'rxjs',
  allowTypeImports: true,
  message:
    "the rxjs index loads every operator: take Observable, Subject or ReplaySubject from src/rx.ts, or load this module after the agent's spawn (then list it in AFTER_SPAWN_RXJS)",
};
/**
 * An ES import of node:http builds the module's ES facade, which reads every export, and so runs
 * the lazy getters (WebSocket, EventSource and the like) that load undici: about 60 to 100 ms of CPU
 * on a 2-core machine, against about 10 for the module itself. `process.getBuiltinModule` runs
 * none of them.
 */
const NODE_HTTP = ['node:http', 'http'].map((name) => ({
  name,
  allowTypeImports: true,
  message: "take node:http with process.getBuiltinModule('node:http'): an ES import of it loads undici too (eslint.config.mjs)",
}));
const RXJS_INTERNAL = { group: ['rxjs/*'], allowTypeImports: true, message: "rxjs's internal paths only through src/rx.ts, where test/rx.test.ts pins them" };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      // The whole codebase as one program: src, plugins, test, demo (tsconfig.json builds src alone).
      parserOptions: { project: ['./tsconfig.check.json'], tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['assets/**/*.js'], languageOptions: { globals: globals.browser } },
  // CommonJS scripts (bench fixtures that must not pay for Node's ES module loader) load with require().
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.commonjs }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  {
    rules: {
      // A terminal proxy matches control characters on purpose (escape sequences, C0 bytes).
      'no-control-regex': 'off',
      // `async` marks a function that fulfils a Promise-returning interface (a store, a checker, a
      // channel handler); a body with nothing to await is not a mistake there.
      '@typescript-eslint/require-await': 'off',
      // A variable that closures read before its one assignment cannot be const (the TDZ would throw).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Start-up: `import … from 'rxjs'` loads RxJS's whole CommonJS index (every operator, ~85 ms of
    // CPU), so only modules that load after the agent's spawn may import it (docs/design/architecture.md,
    // "Start-up"); the rest take Observable, Subject and ReplaySubject from src/rx.ts. Adding a
    // module here is a claim that it loads after the spawn: check it with bench/startup-modules.mjs.
    files: ['src/**/*.ts', 'src/**/*.cts'],
    ignores: ['src/rx.ts', ...AFTER_SPAWN_RXJS],
    rules: { 'no-restricted-imports': ['error', { paths: [RXJS_INDEX, ...NODE_HTTP], patterns: [RXJS_INTERNAL] }] },
  },
  { files: AFTER_SPAWN_RXJS, rules: { 'no-restricted-imports': ['error', { paths: NODE_HTTP, patterns: [RXJS_INTERNAL] }] } },
  {
    // Tests read untyped JSON (frames, events, reports) and assert on its shape: the assertion is the check.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  prettier,
);
