/**
 * A throwaway HOME with a project directory inside, for tests that read and write ccc's own
 * files (config, logs, state) without touching the developer's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempHome {
  root: string;
  home: string;
  /** `$HOME/.claude`: ccc's default config dir. */
  claudeDir: string;
  /** A project directory: `<root>/work/project`. */
  project: string;
  /** A minimal environment: PATH and HOME only, so no CCC_* of the developer leaks in. */
  env: NodeJS.ProcessEnv;
  write(relative: string, content: string): string;
  cleanup(): void;
}

export function makeTempHome(): TempHome {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ccc-home-')));
  const home = path.join(root, 'home');
  const claudeDir = path.join(home, '.claude');
  const project = path.join(root, 'work', 'project');
  fs.mkdirSync(claudeDir, { recursive: true });
  fs.mkdirSync(project, { recursive: true });
  return {
    root,
    home,
    claudeDir,
    project,
    env: { PATH: process.env.PATH, HOME: home },
    write(relative, content) {
      const file = path.resolve(root, relative);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
