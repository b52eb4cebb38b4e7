/** The page's HTTP side: the token guards the page, assets come from a fixed list only. */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { ObserverServer } from '../../src/observer/observer-server.js';
import { startTestObserver } from './support/start-test-observer.js';

let server: ObserverServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A raw request: the path is sent exactly as written (no client-side `..` normalisation). */
function get(
  base: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; type: string; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('observer HTTP', () => {
  it('serves the page only with the token', async () => {
    server = await startTestObserver({ token: 'page-token' });
    expect((await get(server.url, '/')).status).toBe(401);
    expect((await get(server.url, '/?token=wrong')).status).toBe(401);
    const page = await get(server.url, '/?token=page-token');
    expect(page.status).toBe(200);
    expect(page.type).toMatch(/text\/html/);
    expect(page.body).toContain('/assets/xterm.js');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('serves nothing, page or asset, to a request naming another host (DNS rebinding) or sent from another origin', async () => {
    server = await startTestObserver({ token: 'page-token' });
    const port = Number(new URL(server.url).port);
    for (const path of ['/?token=page-token', '/assets/observer.js']) {
      const rebound = await get(server.url, path, 'GET', { Host: `attacker.example:${port}` });
      expect(rebound.status).toBe(403);
      expect(rebound.body).not.toContain('xterm');
      expect((await get(server.url, path, 'GET', { Origin: 'http://attacker.example' })).status).toBe(403);
      expect((await get(server.url, path, 'GET', { Host: `localhost:${port}` })).status).toBe(200);
    }
  });

  it('serves xterm.js and its stylesheet from the installed package, and the page script', async () => {
    server = await startTestObserver();
    const xterm = await get(server.url, '/assets/xterm.js');
    expect(xterm.status).toBe(200);
    expect(xterm.type).toMatch(/javascript/);
    expect(xterm.body).toContain('Terminal');
    expect((await get(server.url, '/assets/xterm.css')).body).toContain('.xterm');
    expect((await get(server.url, '/assets/observer.js')).body).toContain('new WebSocket');
    expect((await get(server.url, '/assets/observer.css')).status).toBe(200);
  });

  it('never reaches other files, however the path is written', async () => {
    server = await startTestObserver();
    for (const path of [
      '/assets/../../package.json',
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/xterm.js/../../../../etc/passwd',
      '/package.json',
      '/assets/',
      '/assets/index.html',
      '//etc/passwd',
      '/assets/xterm.js%00.css',
    ]) {
      const response = await get(server.url, path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('"dependencies"');
      expect(response.body, path).not.toContain('root:');
    }
  });

  it('answers other methods with 405', async () => {
    server = await startTestObserver();
    expect((await get(server.url, '/assets/xterm.css', 'POST')).status).toBe(405);
    const head = await get(server.url, '/assets/xterm.css', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});
