/**
 * Serves the browser page: `GET /` (token required) and a fixed list of assets. xterm.js and its
 * stylesheet come from the installed `@xterm/xterm` package, never a CDN. Asset names are looked
 * up in a table, so no request path ever reaches the file system.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUrl, tokenFromRequest, tokenMatches } from './token.js';

const require = createRequire(import.meta.url);
/** `assets/observer/` of the package: two levels up from both `src/observer/` and `dist/observer/`. */
const pageDir = fileURLToPath(new URL('../../assets/observer/', import.meta.url));

interface Asset {
  file: () => string;
  type: string;
}

const assets = new Map<string, Asset>(
  Object.entries({
    '/': { file: () => `${pageDir}index.html`, type: 'text/html; charset=utf-8' },
    '/assets/observer.js': { file: () => `${pageDir}observer.js`, type: 'text/javascript; charset=utf-8' },
    '/assets/observer.css': { file: () => `${pageDir}observer.css`, type: 'text/css; charset=utf-8' },
    '/assets/xterm.js': { file: () => require.resolve('@xterm/xterm/lib/xterm.js'), type: 'text/javascript; charset=utf-8' },
    '/assets/xterm.css': { file: () => require.resolve('@xterm/xterm/css/xterm.css'), type: 'text/css; charset=utf-8' },
  }),
);

const securityHeaders = {
  'Cache-Control': 'no-store',
  // The page URL carries the token: never send it on as a referrer.
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // xterm.js's DOM renderer writes a <style> element, hence 'unsafe-inline' for styles only.
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:; img-src data:; frame-ancestors 'none'",
};

export async function servePage(request: IncomingMessage, response: ServerResponse, token: string): Promise<void> {
  const path = requestUrl(request).pathname;
  const asset = assets.get(path);
  if (request.method !== 'GET' && request.method !== 'HEAD') return plain(response, 405, 'Method not allowed\n');
  if (!asset) return plain(response, 404, 'Not found\n');
  // The page itself needs the token; the assets are the package's own public files.
  if (path === '/' && !tokenMatches(token, tokenFromRequest(request))) {
    return plain(response, 401, 'Unauthorized: open the URL printed as "Observer: http://…/?token=…".\n');
  }
  let body: Buffer;
  try {
    body = await readFile(asset.file());
  } catch {
    return plain(response, 500, 'The observer page files are missing from the ccc installation.\n');
  }
  response.writeHead(200, { ...securityHeaders, 'Content-Type': asset.type, 'Content-Length': body.length });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' });
  response.end(text);
}
