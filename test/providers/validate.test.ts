/** `ccc validate` as a user runs it: offline checks, and --network against local servers only. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, onTestFinished } from 'vitest';
import { runCcc } from '../support/ccc-run.js';
import type { ClaudeWorld } from '../support/claude-env.js';
import { it } from '../support/fixtures.js';

function writeProviders(world: ClaudeWorld, providers: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  fs.writeFileSync(path.join(world.claudeDir, 'ccc.json'), JSON.stringify({ providers, ...extra }));
}

/** A plain HTTP server on 127.0.0.1 (answering each request with `answer`), closed when the test ends. */
async function listening(answer: http.RequestListener): Promise<string> {
  const server = http.createServer(answer);
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise((r) => server.close(() => r()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function localServer(status: number): Promise<{ url: string; hits: string[] }> {
  const hits: string[] = [];
  const base = await listening((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(status).end();
  });
  return { url: `${base}/anthropic`, hits };
}

/** A port that was just free: nothing listens there. */
async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

describe('ccc validate', () => {
  it('reports each missing key with how to fix it, and exits 2', async ({ rig }) => {
    const world = rig.world();
    writeProviders(world, {
      good: { env: { ANTHROPIC_BASE_URL: 'https://good.example/anthropic', ANTHROPIC_AUTH_TOKEN: 't' } },
      nourl: { env: { ANTHROPIC_API_KEY: 'k' } },
      badurl: { env: { ANTHROPIC_BASE_URL: 'good.example/anthropic', ANTHROPIC_API_KEY: 'k' } },
      nokey: { env: { ANTHROPIC_BASE_URL: 'https://x.example' } },
    });
    const result = await runCcc(world, ['validate', '--all']);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('good    ok       https://good.example/anthropic');
    expect(result.stdout).toContain(
      "nourl   INVALID  (no base URL)\n        - ANTHROPIC_BASE_URL is missing: add the provider's endpoint to providers.nourl.env.",
    );
    expect(result.stdout).toContain('- ANTHROPIC_BASE_URL "good.example/anthropic" is not an http(s) URL: write it as https://host[/path].');
    expect(result.stdout).toContain('- no key: set ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN in providers.nokey.env.');
    expect(result.stdout).toContain(`3 of 4 invalid (${path.join(world.claudeDir, 'ccc.json')}).`);
    expect(result.stdout).not.toContain('"k"'); // secrets are never printed
  });

  it('checks one named provider, or the current one by default; exit 0 when valid', async ({ rig }) => {
    const world = rig.world();
    writeProviders(world, { a: { env: { ANTHROPIC_BASE_URL: 'https://a.example', ANTHROPIC_API_KEY: 'k' } }, b: { env: {} } }, { current_provider: 'a' });
    expect(await runCcc(world, ['validate'])).toMatchObject({ code: 0, stdout: 'a  ok       https://a.example\nAll 1 valid.\n' });
    expect((await runCcc(world, ['validate', 'b'])).code).toBe(2);
    const unknown = await runCcc(world, ['validate', 'c']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown provider "c". Known providers: a, b.');
  });

  it('--network: an endpoint that answers is valid; a refused connection or a 5xx is not', async ({ rig }) => {
    const world = rig.world();
    const up = await localServer(404);
    const down = await localServer(503);
    const nothing = await closedPortUrl();
    writeProviders(world, {
      up: { env: { ANTHROPIC_BASE_URL: up.url, ANTHROPIC_API_KEY: 'k' } },
      down: { env: { ANTHROPIC_BASE_URL: down.url, ANTHROPIC_API_KEY: 'k' } },
      gone: { env: { ANTHROPIC_BASE_URL: nothing, ANTHROPIC_API_KEY: 'k' } },
    });
    const result = await runCcc(world, ['validate', '--all', '--network']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(new RegExp(`up    ok       ${up.url} \\(answered HTTP 404 in \\d+ ms\\)`));
    expect(result.stdout).toContain(`- ${down.url} answered HTTP 503 (a server error): the endpoint is down or wrong.`);
    expect(result.stdout).toContain(`- ${nothing} cannot be reached (ECONNREFUSED): check the URL and your network.`);
    expect(up.hits).toEqual(['HEAD /anthropic']);

    const offline = await runCcc(world, ['validate', 'gone']);
    expect(offline.code).toBe(0); // without --network nothing is sent
  });

  it('with no provider, an API key in the environment is a valid setup: it says claude will use it, exit 0', async ({ rig }) => {
    const world = rig.world();
    const result = await runCcc(world, ['validate']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No providers in');
    expect(result.stdout).toMatch(/environment\s+ok\s+https:\/\/api\.anthropic\.com/);
    expect(result.stdout).toContain('claude will use the API key in ANTHROPIC_API_KEY (…mnop) against https://api.anthropic.com.');
    expect(result.stdout).not.toContain(world.env.ANTHROPIC_API_KEY!);
  });

  it("with no provider, claude's precedence decides: a bearer token before a key; an apiKeyHelper; a login; --network probes ANTHROPIC_BASE_URL", async ({
    rig,
  }) => {
    const world = rig.world();
    const up = await localServer(401);
    const token = await runCcc(world, ['validate', '--network'], { env: { ANTHROPIC_AUTH_TOKEN: 'tok-0123456789abcdef', ANTHROPIC_BASE_URL: up.url } });
    expect(token.code).toBe(0);
    expect(token.stdout).toContain('claude will use the bearer token in ANTHROPIC_AUTH_TOKEN (…cdef).');
    expect(token.stdout).toMatch(/answered HTTP 401 in \d+ ms/);
    expect(up.hits).toHaveLength(1);

    fs.writeFileSync(path.join(world.claudeDir, 'settings.json'), JSON.stringify({ apiKeyHelper: '~/bin/get-key' }));
    const helper = await runCcc(world, ['validate'], { env: { ANTHROPIC_API_KEY: '' } });
    expect(helper.code).toBe(0);
    expect(helper.stdout).toContain('the key printed by apiKeyHelper `~/bin/get-key`');

    fs.rmSync(path.join(world.claudeDir, 'settings.json'));
    fs.writeFileSync(path.join(world.claudeDir, '.credentials.json'), '{}', { mode: 0o600 });
    const login = await runCcc(world, ['validate'], { env: { ANTHROPIC_API_KEY: '' } });
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`your claude login (${path.join(world.claudeDir, '.credentials.json')})`);
  });

  it('with no provider and no credentials anywhere: exit 2, saying how to add them', async ({ rig }) => {
    const world = rig.world();
    const result = await runCcc(world, ['validate'], { env: { ANTHROPIC_API_KEY: '' } });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('claude has no credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or run `claude` and log in with /login.');
    expect(result.stdout).toMatch(/Not valid\. Add credentials, or a provider under "providers" in .*ccc\.json/);
  });
});

describe('ccc providers', () => {
  it('lists the providers with the current one marked', async ({ rig }) => {
    const world = rig.world();
    writeProviders(world, { work: { env: { ANTHROPIC_BASE_URL: 'https://work.example' } }, home: { env: {} } }, { current_provider: 'home' });
    const result = await runCcc(world, ['providers']);
    expect(result).toMatchObject({ code: 0, stdout: '  work  https://work.example\n* home  (no ANTHROPIC_BASE_URL)\n' });
  });
});

describe('checkEndpoint', () => {
  it('reports an endpoint that accepts the connection but never answers', async () => {
    const { checkEndpoint } = await import('../../src/providers/validate-provider.js');
    const url = await listening(() => {}); // never answers
    const report = await checkEndpoint({ name: 'slow', baseUrl: url, problems: [] }, { timeoutMs: 300 });
    expect(report.problems).toEqual([`${url} cannot be reached (no answer within 300 ms): check the URL and your network.`]);
  });
});
