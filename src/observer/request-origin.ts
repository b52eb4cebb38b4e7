/**
 * Whether a request was meant for this observer: its `Host` names the address the server listens
 * on (or a name in `observer.allowed_hosts`), and its `Origin`, when a browser sends one, is the
 * observer's own page. The token alone is not enough: a page on another origin, or a name that
 * DNS rebinding points at 127.0.0.1, could use a URL it learned; neither passes this check.
 */
import os from 'node:os';
import type { IncomingMessage } from 'node:http';

export interface RequestOriginOptions {
  /** `observer.host`: what the server listens on. */
  host: string;
  /** The port it listens on (never 0: the one it got). */
  port: number;
  /** `observer.allowed_hosts`: `name` (any port) or `name:port`, for a tunnel or a proxy. */
  allowedHosts?: readonly string[];
}

export type OriginCheck = { ok: true } | { ok: false; refused: 'host' | 'origin'; value: string };

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);

/** The check for one server; the names it accepts are worked out once. */
export function requestOriginCheck(options: RequestOriginOptions): (request: IncomingMessage) => OriginCheck {
  const withPort = new Set<string>();
  const anyPort = new Set<string>();
  for (const name of listenNames(options.host)) withPort.add(`${name}:${options.port}`);
  for (const entry of options.allowedHosts ?? []) {
    const name = entry.trim().toLowerCase();
    (/:\d+$/.test(name) ? withPort : anyPort).add(name);
  }
  const hostAllowed = (host: string): boolean => {
    const value = host.toLowerCase();
    return withPort.has(value) || anyPort.has(value.replace(/:\d+$/, ''));
  };
  return (request) => {
    const host = request.headers.host ?? '';
    if (!hostAllowed(host)) return { ok: false, refused: 'host', value: host };
    const origin = request.headers.origin;
    if (origin === undefined) return { ok: true }; // not a browser page's request (ccc observe, curl)
    if (!originAllowed(origin, hostAllowed)) return { ok: false, refused: 'origin', value: origin };
    return { ok: true };
  };
}

/** `http(s)://<an accepted host>`, nothing more: `null`, a path or another name is refused. */
function originAllowed(origin: string, hostAllowed: (host: string) => boolean): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.origin !== origin.toLowerCase().replace(/\/$/, '')) return false;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return hostAllowed(`${url.hostname}:${port}`);
}

/**
 * The names the listening address answers to: loopback's usual spellings for a loopback address;
 * the machine's name and every interface address for a wildcard one; else the configured host.
 */
function listenNames(host: string): string[] {
  const name = bracket(host.toLowerCase());
  if (WILDCARD.has(name)) return [...LOOPBACK, os.hostname().toLowerCase(), ...interfaceAddresses()];
  if (isLoopback(name)) return [...new Set([...LOOPBACK, name])];
  return [name];
}

function isLoopback(name: string): boolean {
  return name === 'localhost' || name === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(name);
}

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flatMap((list) => list ?? [])
    .map((entry) => bracket(entry.address.toLowerCase().replace(/%.*$/, '')));
}

function bracket(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
