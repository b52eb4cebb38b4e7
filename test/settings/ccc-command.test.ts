import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { supervisorHookCommand } from '../../src/settings/ccc-command.js';
import { shellQuote } from '../../src/stop/launch-settings.js';
import { spawnSync } from 'node:child_process';

describe('the ccc command written into hook settings', () => {
  it('is the launcher path as given when ccc runs through its bin link', () => {
    expect(supervisorHookCommand({ argv1: '/usr/local/bin/ccc', execPath: '/usr/bin/node', cwd: '/' })).toBe('/usr/local/bin/ccc supervisor-hook');
  });

  it('is node plus the real path of main.js when a .js file was run, quoted when a path has spaces', () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc cmd ')));
    try {
      fs.mkdirSync(path.join(dir, 'real'));
      fs.writeFileSync(path.join(dir, 'real', 'main.js'), '');
      fs.symlinkSync(path.join(dir, 'real', 'main.js'), path.join(dir, 'link.js'));
      const command = supervisorHookCommand({ argv1: 'link.js', execPath: '/opt/node 20/bin/node', cwd: dir });
      expect(command).toBe(`'/opt/node 20/bin/node' '${path.join(dir, 'real', 'main.js')}' supervisor-hook`);
      expect(command.endsWith(' supervisor-hook')).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('quotes so that a POSIX shell gives back the exact words', () => {
    for (const word of ["it's", 'a b', '$HOME', 'plain-word', '`x`', '']) {
      const echoed = spawnSync('/bin/sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' }).stdout;
      expect(echoed).toBe(word);
    }
  });
});
