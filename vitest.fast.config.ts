// `npm run test:fast`: the inner loop's tier, every test file but the heavy ones (test/support/tiers.ts).
import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import { heavyTestFiles } from './test/support/tiers.js';
import base from './vitest.config.js';

export default mergeConfig(base, defineConfig({ test: { exclude: heavyTestFiles(fileURLToPath(new URL('.', import.meta.url))) } }));
