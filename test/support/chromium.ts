/**
 * The real Chromium the page tests drive (Debian's, which `npm run test:setup` installs), launched
 * headless with nothing of its own reaching the network: one place for its path and flags. Tests
 * get it through the `browser` fixture (test/support/fixtures.ts): one per file, skipped or failing
 * with the install line as test/support/tools.ts says.
 */
import { chromium, type Browser } from 'playwright-core';
import { toolPath } from './tools.js';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  const executablePath = toolPath('chromium');
  if (!executablePath) throw new Error('chromium is missing: the browser fixture names the install line');
  return chromium.launch({ executablePath, args: FLAGS });
}
