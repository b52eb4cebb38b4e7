/**
 * `ccc doctor` on the claude a user really has: a real too-old claude from the registry, one that
 * prints garbage for `--version`, one whose `--version` fails or hangs, a missing one: each ✗ with
 * the install line; one newer than the newest tested: a note naming that version, not a lack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect } from 'vitest';
import type { DoctorReport } from '../../src/doctor/run-doctor.js';
import { MINIMUM_CLAUDE, NEWEST_TESTED_CLAUDE } from '../../src/claude/claude-support.js';
import type { ClaudeWorld } from '../support/claude-env.js';
import { processesIn, runCcc } from '../support/ccc-run.js';
import { it } from '../support/fixtures.js';
import { registryClaude } from '../support/registry-claude.js';

const INSTALL = 'npm install -g @anthropic-ai/claude-code@latest';
let oldClaude: string;
beforeAll(async () => {
  oldClaude = await registryClaude('1.0.100');
}, 320_000);

function fakeClaude(world: ClaudeWorld, script: string): string {
  const file = path.join(world.root, `claude-${fs.readdirSync(world.root).length}`);
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

async function doctor(world: ClaudeWorld, claude: string) {
  const text = await runCcc(world, ['doctor'], { env: { CCC_CLAUDE: claude } });
  const json = await runCcc(world, ['doctor', '--json'], { env: { CCC_CLAUDE: claude } });
  const report = JSON.parse(json.stdout) as DoctorReport;
  return { text, code: json.code, check: report.checks.find((c) => c.id === 'claude')! };
}

describe('ccc doctor and the claude version', () => {
  it('a real claude 1.0.100 from the registry: ✗ too old, naming the minimum, with the install line; exit 1', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const { text, code, check } = await doctor(world, oldClaude);
    expect(code).toBe(1);
    expect(check).toMatchObject({ status: 'missing', needed: true, fix: expect.stringContaining(INSTALL) });
    expect(text.stdout).toMatch(
      new RegExp(`^✗ claude +1\\.0\\.100, .*: older than ${MINIMUM_CLAUDE.replace(/\./g, '\\.')}, the oldest ccc supports\\n +fix: .*${INSTALL}`, 'm'),
    );
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('A supervised session here lacks: claude.');
  });

  it('a claude that prints garbage for --version: ✗, what it printed shown inert', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const { text, code, check } = await doctor(world, fakeClaude(world, `printf 'garbage {not json \\033[31mred\\n'`));
    expect(code).toBe(1);
    expect(check).toMatchObject({ status: 'missing', fix: expect.stringContaining(INSTALL) });
    expect(text.stdout).toMatch(/^✗ claude +.*: no version in what `--version` printed \("garbage \{not json \\u001b\[31mred"\)$/m);
    expect(text.stdout).not.toContain('\x1b');
  });

  it('a claude whose --version exits nonzero, or hangs (killed with its children, bounded): ✗ with the fix', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const failing = await doctor(world, fakeClaude(world, 'echo "2.1.330 (Claude Code)"; echo "no licence" >&2; exit 1'));
    expect(failing.check).toMatchObject({ status: 'missing', fix: expect.stringContaining(INSTALL) });
    expect(failing.check.detail).toMatch(/does not run: .*exit code 1\): no licence\)$/);
    // The shell's child holds the pipe too: killing the shell alone would leave doctor waiting 600 s,
    // until this run's own limit killed it (no exit code) with the sleep still running in the project.
    const hanging = await runCcc(world, ['doctor', '--json'], { env: { CCC_CLAUDE: fakeClaude(world, 'sleep 600; echo 2.1.330') } });
    expect(hanging.code, hanging.stderr).toBe(1);
    // Gone with the shell (a process that is exiting still shows its cwd for a moment after its pipes close).
    await expect.poll(() => processesIn(world), { timeout: 10_000 }).toEqual([]);
    const check = (JSON.parse(hanging.stdout) as DoctorReport).checks.find((c) => c.id === 'claude')!;
    expect(check).toMatchObject({ status: 'missing', fix: expect.stringContaining(INSTALL) });
    expect(check.detail).toMatch(/no answer within 10 s/);
  });

  it('a missing claude: ✗ with the install line', async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const { code, check } = await doctor(world, path.join(world.root, 'no-such-claude'));
    expect(code).toBe(1);
    expect(check).toMatchObject({ status: 'missing', detail: expect.stringContaining('not found'), fix: expect.stringContaining(INSTALL) });
  });

  it(`a claude newer than ${NEWEST_TESTED_CLAUDE}: a note naming the newest tested, not a lack (exit 0)`, async ({ rig }) => {
    const world = rig.world({ supervisor: true });
    const { text, code, check } = await doctor(world, fakeClaude(world, 'echo "9.0.0 (Claude Code)"'));
    expect(code).toBe(0);
    expect(check).toMatchObject({ status: 'note', needed: false });
    expect(text.stdout).toMatch(
      new RegExp(`^· claude +9\\.0\\.0, .*: newer than ${NEWEST_TESTED_CLAUDE.replace(/\./g, '\\.')}, the newest claude ccc was tested with`, 'm'),
    );
  });
});
