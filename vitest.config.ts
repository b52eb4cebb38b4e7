import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The installed package needs the npm registry: `npm run test:package` (vitest.package.config.ts).
    exclude: [...configDefaults.exclude, 'test/package/**'],
    setupFiles: ['test/support/setup.ts'],
    pool: 'forks',
    // Two cores: real-claude tests are heavy, run few files at once.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
