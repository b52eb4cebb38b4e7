/** mayHoldProjectConfig: says yes wherever cosmiconfig could find a project config, so skipping cosmiconfig on a no loses nothing. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayHoldProjectConfig, projectSearchPlaces } from '../../src/config/config-candidates.js';
import { loadConfig } from '../../src/config/load.js';

let root: string;
let nested: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-candidates-')));
  nested = path.join(root, 'a', 'b');
  fs.mkdirSync(nested, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (file: string, text: string) => fs.writeFileSync(path.join(root, file), text);
const holds = () => mayHoldProjectConfig(nested, projectSearchPlaces);

describe('mayHoldProjectConfig', () => {
  it('says no when no directory up to the root holds a config name (unless one above the temp dir does)', () => {
    const aboveTemp = mayHoldProjectConfig(path.dirname(root), projectSearchPlaces);
    expect(holds()).toBe(aboveTemp);
  });

  it.each(projectSearchPlaces.filter((name) => name !== 'package.json'))('says yes for %s in an ancestor', (name) => {
    write(name, '{}');
    expect(holds()).toBe(true);
  });

  it('counts a package.json only with a ccc key, or when it does not parse', () => {
    write('package.json', JSON.stringify({ name: 'x', cccx: 1 }));
    expect(holds()).toBe(mayHoldProjectConfig(path.dirname(root), projectSearchPlaces));
    write('package.json', JSON.stringify({ name: 'x', ccc: { supervisor: { max_iterations: 3 } } }));
    expect(holds()).toBe(true);
    write('package.json', '{ not json');
    expect(holds()).toBe(true);
  });

  it('loadConfig still reads a package.json#ccc and still reports a broken package.json', async () => {
    const env = { HOME: root, CCC_CONFIG_DIR: path.join(root, 'config') };
    write('package.json', JSON.stringify({ name: 'x', ccc: { supervisor: { max_iterations: 3 } } }));
    const r = await loadConfig({ cwd: nested, env });
    expect(r.config.supervisor.max_iterations).toBe(3);
    expect(r.files.project).toBe(path.join(root, 'package.json'));
    write('package.json', '{ not json');
    await expect(loadConfig({ cwd: nested, env })).rejects.toMatchObject({ code: 'CONFIG_UNREADABLE', exitCode: 2 });
  });
});
