// `npm run test:package`: the package as a user installs it (test/package/); needs the npm registry.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({ esbuild: base.esbuild, test: { ...base.test, include: ['test/package/**/*.test.ts'], exclude: configDefaults.exclude } });
