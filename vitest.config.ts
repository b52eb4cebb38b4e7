import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  // Vite transforms .ts, .mts, .tsx and .jsx by default; ccc's CommonJS modules are .cts (bin.cts and the front's).
  esbuild: { include: /\.(m?ts|cts|[jt]sx)$/ },
  test: {
    include: ['test/**/*.test.ts'],
    // The installed package needs the npm registry: `npm run test:package` (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**'],
    setupFiles: ['test/support/setup.ts'],
    pool: 'forks',
    // Two cores, three files at once: a real-claude file waits more than it computes (the suite's
    // files spend about two thirds of their time on CPU), so a third file fills the other two's waits.
    maxWorkers: 3,
    testTimeout: 60_000,
    // In CI only: a test that fails once is run once more. The real-claude and pty tests share two
    // cores with each other, and a few timing limits that the issues set (a reviewer gone within
    // 2 s of a kill) can be missed under that load; a behaviour that is broken fails both runs.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts', './test/support/stall-reporter.ts'],
  },
});
