/**
 * Files the project points ccc at stay in the project: a SUPERVISOR.md that is a symlink to
 * /proc/self/environ or to a private key once sent ccc's environment (the API key included) or
 * the key to the model, and the run exited 0. Through the built ccc, the real claude and the
 * scripted model server: what is refused never reaches a request, what is trusted does, and
 * `ccc config` says where each file really is. Each family: ./SUPERVISOR.md, a prompt_path the
 * project's config wrote (`..`), a claude checker's own prompt_path, the project config file itself,
 * a link swapped in between the start and a review, a kanban role prompt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadRolePrompts } from '../../src/kanban/role-prompts.js';
import type { ClaudeWorld } from '../support/claude-env.js';
import { runCcc, SUPERVISOR_TEXT } from '../support/ccc-run.js';
import { it, type Rig } from '../support/fixtures.js';
import type { ModelServer } from '../support/model-server.js';

const SECRET = 'SECRET-KEY-MATERIAL-6c1f';
const PRIVATE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${SECRET}\n-----END OPENSSH PRIVATE KEY-----\n`;

describe('files the project points ccc at stay in the project', () => {
  // The current test's, from its rig (which tears them down); the helpers below read them.
  let server: ModelServer;
  let world: ClaudeWorld;
  let outside: string;

  async function setUp(rig: Rig): Promise<void> {
    ({ server, world } = await rig.start(
      (r) => (r.kind === 'review' ? { verdict: { completed: true, feedback: 'The work is done.' } } : { text: 'All done.' }),
      { supervisor: false },
    ));
    outside = path.join(world.root, 'outside');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'id_ed25519'), PRIVATE_KEY);
  }

  const project = (name: string) => path.join(world.cwd, name);
  const run = (env: NodeJS.ProcessEnv = {}) => runCcc(world, ['--supervisor', '-p', 'do the task'], { env });
  const sentToModel = (text: string) => server.requests.some((r) => JSON.stringify(r.body).includes(text));

  it('./SUPERVISOR.md linked to /proc/self/environ: exit 2 naming the link and its target; the environment never reaches the model', async ({ rig }) => {
    await setUp(rig);
    fs.symlinkSync('/proc/self/environ', project('SUPERVISOR.md'));
    const r = await run({ CCC_TEST_SECRET: SECRET });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${project('SUPERVISOR.md')} is outside ${world.cwd} (it resolves to /proc/`);
    expect(r.stderr).toContain('trusted_dirs');
    expect(server.requests).toEqual([]);
  });

  it('./SUPERVISOR.md linked to a private key, or through a linked directory: refused, the key is never sent nor shown', async ({ rig }) => {
    await setUp(rig);
    fs.symlinkSync(path.join(outside, 'id_ed25519'), project('SUPERVISOR.md'));
    const direct = await run();
    expect(direct.code).toBe(2);
    expect(direct.stderr).toContain(`(it resolves to ${path.join(outside, 'id_ed25519')})`);
    expect(direct.stderr).not.toContain(SECRET);
    // A link one directory up: SUPERVISOR.md is a plain name in a linked directory... of the project itself.
    fs.rmSync(project('SUPERVISOR.md'));
    fs.symlinkSync(outside, project('docs'));
    fs.symlinkSync('docs/id_ed25519', project('SUPERVISOR.md'));
    const viaDir = await run();
    expect(viaDir.code).toBe(2);
    expect(viaDir.stderr).toContain(`(it resolves to ${path.join(outside, 'id_ed25519')})`);
    expect(sentToModel(SECRET)).toBe(false);
    expect(server.requests).toEqual([]);
  });

  it("a prompt_path the project's config wrote (`..`, a claude checker's own) is bound to the project; the same path set by the user is read", async ({
    rig,
  }) => {
    await setUp(rig);
    fs.writeFileSync(path.join(outside, 'rules.md'), `# rules\n${SECRET}`);
    const relative = path.relative(world.cwd, path.join(outside, 'rules.md'));
    fs.writeFileSync(project('.cccrc.json'), JSON.stringify({ supervisor: { prompt_path: relative } }));
    const fromProject = await run();
    expect(fromProject.code).toBe(2);
    expect(fromProject.stderr).toContain(`${path.join(outside, 'rules.md')} is outside ${world.cwd}`);
    fs.writeFileSync(project('.cccrc.json'), JSON.stringify({ supervisor: { checkers: [{ use: 'claude', prompt_path: relative }] } }));
    const checkerOwn = await run();
    expect(checkerOwn.code).toBe(2);
    expect(checkerOwn.stderr).toContain(`${path.join(outside, 'rules.md')} is outside ${world.cwd}`);
    expect(server.requests).toEqual([]);

    // The user's own setting (an environment variable) names a file of the user's: read where it points.
    fs.rmSync(project('.cccrc.json'));
    const fromUser = await run({ CCC_SUPERVISOR_PROMPT_PATH: path.join(outside, 'rules.md') });
    expect(fromUser.code, fromUser.stderr).toBe(0);
    expect(server.byKind('review').some((r) => r.text.includes(SECRET))).toBe(true);
  });

  it("with the target's directory in the global trusted_dirs the link is read, and ccc config shows where it resolved; a project cannot trust for itself", async ({
    rig,
  }) => {
    await setUp(rig);
    fs.writeFileSync(path.join(outside, 'SUPERVISOR.md'), `${SUPERVISOR_TEXT}\nSHARED-RULES-2291`);
    fs.symlinkSync(path.join(outside, 'SUPERVISOR.md'), project('SUPERVISOR.md'));
    fs.writeFileSync(path.join(world.claudeDir, 'ccc.json'), JSON.stringify({ trusted_dirs: [outside] }));
    const config = await runCcc(world, ['config']);
    expect(config.stdout).toContain(
      `# prompt file: ${project('SUPERVISOR.md')} -> ${path.join(outside, 'SUPERVISOR.md')} (a link) (./SUPERVISOR.md in the project`,
    );
    const trusted = await run();
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(server.byKind('review').some((r) => r.text.includes('SHARED-RULES-2291'))).toBe(true);

    fs.rmSync(path.join(world.claudeDir, 'ccc.json'));
    fs.writeFileSync(project('.cccrc.json'), JSON.stringify({ trusted_dirs: [outside] }));
    const selfTrust = await run();
    expect(selfTrust.code).toBe(2);
    expect(selfTrust.stderr).toContain('trusted_dirs (from');
    expect(selfTrust.stderr).toContain("a project's config cannot widen what ccc reads out of the project");
  });

  it('a link inside the project is used, and ccc config says it is a link', async ({ rig }) => {
    await setUp(rig);
    fs.mkdirSync(project('docs'));
    fs.writeFileSync(project('docs/review.md'), `${SUPERVISOR_TEXT}\nIN-PROJECT-RULES-8812`);
    fs.symlinkSync('docs/review.md', project('SUPERVISOR.md'));
    const config = await runCcc(world, ['config']);
    expect(config.stdout).toContain(`# prompt file: ${project('SUPERVISOR.md')} -> ${project('docs/review.md')} (a link)`);
    const r = await run();
    expect(r.code, r.stderr).toBe(0);
    expect(server.byKind('review').some((req) => req.text.includes('IN-PROJECT-RULES-8812'))).toBe(true);
  });

  it('a link swapped in after the start (here by a rule checker at the stop) is refused at the review: the key never reaches the model', async ({ rig }) => {
    await setUp(rig);
    fs.writeFileSync(project('SUPERVISOR.md'), SUPERVISOR_TEXT);
    const swap = `ln -sf ${path.join(outside, 'id_ed25519')} SUPERVISOR.md`;
    fs.writeFileSync(project('.cccrc.json'), JSON.stringify({ supervisor: { checkers: [{ use: 'rule', commands: [swap] }, 'claude'], max_iterations: 2 } }));
    const r = await run();
    expect(r.code).not.toBe(0);
    expect(fs.lstatSync(project('SUPERVISOR.md')).isSymbolicLink()).toBe(true);
    expect(server.byKind('agent').length).toBeGreaterThan(0);
    expect(server.byKind('review')).toEqual([]);
    expect(sentToModel(SECRET)).toBe(false);
  });

  it('the project config file linked out of the project: exit 2 naming where it resolves, its values and text never shown', async ({ rig }) => {
    await setUp(rig);
    fs.writeFileSync(project('SUPERVISOR.md'), SUPERVISOR_TEXT);
    fs.writeFileSync(path.join(outside, 'credentials.json'), JSON.stringify({ supervisor: { max_iterations: SECRET } }));
    fs.symlinkSync(path.join(outside, 'credentials.json'), project('.cccrc.json'));
    const json = await runCcc(world, ['config']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain(`resolves to ${path.join(outside, 'credentials.json')}, outside ${world.cwd}`);
    expect(json.stderr).not.toContain(SECRET);
    fs.rmSync(project('.cccrc.json'));
    fs.symlinkSync(path.join(outside, 'id_ed25519'), project('.cccrc.json'));
    const key = await run();
    expect(key.code).toBe(2);
    expect(key.stderr).toContain(`resolves to ${path.join(outside, 'id_ed25519')}, outside ${world.cwd}`);
    expect(key.stderr).not.toContain('b3BlbnNzaC1rZXkt');
    expect(server.requests).toEqual([]);
  });

  it('a kanban role prompt linked out of the project is refused; in a roles directory the user named, its files are read', async ({ rig }) => {
    await setUp(rig);
    fs.mkdirSync(project('roles'));
    fs.symlinkSync(path.join(outside, 'id_ed25519'), project('roles/Manager.md'));
    const refused = await loadRolePrompts({ rolesDir: './roles', cwd: world.cwd, setBy: 'default', trusted: [] }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(refused?.message).toContain(`The Manager prompt roles/Manager.md resolves to ${path.join(outside, 'id_ed25519')}, outside ${world.cwd}`);
    expect(refused?.message).not.toContain(SECRET);
    await expect(loadRolePrompts({ rolesDir: './roles', cwd: world.cwd, setBy: 'project', trusted: [] })).rejects.toThrow('outside');
    await expect(loadRolePrompts({ rolesDir: './roles', cwd: world.cwd, setBy: 'default', trusted: [outside] })).resolves.toMatchObject({
      Manager: { text: PRIVATE_KEY },
    });
    fs.writeFileSync(path.join(outside, 'Architect.md'), '# my architect');
    await expect(loadRolePrompts({ rolesDir: outside, cwd: world.cwd, setBy: 'flag', trusted: [] })).resolves.toMatchObject({
      Architect: { text: '# my architect' },
    });
  });
});

describe('an empty, blank or BOM-only SUPERVISOR.md: the run, ccc config and ccc init say the same thing', () => {
  for (const [name, text] of [
    ['empty', ''],
    ['blank', ' \n\t\n'],
    ['a byte-order mark alone', '\uFEFF'],
    ['a byte-order mark and a newline', '\uFEFF\r\n'],
  ] as const) {
    it(name, async ({ rig }) => {
      const world = rig.world({ modelUrl: 'http://127.0.0.1:9' });
      const file = path.join(world.cwd, 'SUPERVISOR.md');
      fs.writeFileSync(file, text);
      // A usable global file too: the project's own empty one must not be passed over for it.
      fs.writeFileSync(path.join(world.claudeDir, 'SUPERVISOR.md'), '# global rules');
      const r = await runCcc(world, ['--supervisor', '-p', 'do the task']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`${file} is empty (nothing but white space or a byte-order mark)`);
      expect(r.stderr).not.toContain('No SUPERVISOR.md');
      const config = await runCcc(world, ['config']);
      expect(config.stdout).toContain(`${file} is empty`);
      const init = await runCcc(world, ['init']);
      expect(init.code).toBe(2);
      expect(init.stderr).toContain('SUPERVISOR.md (empty: a run cannot use it) already exists');
    });
  }
});
