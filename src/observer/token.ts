/**
 * The observer's access token: random unless configured, accepted from `?token=` or an
 * `Authorization: Bearer` header, compared in constant time so a remote guesser learns nothing
 * from response timing.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Hashing first gives equal-length inputs, so even the length of the token does not leak. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}

export function tokenFromRequest(request: IncomingMessage): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match) return match[1];
  }
  return requestUrl(request).searchParams.get('token') ?? undefined;
}

/** The request target parsed against a dummy origin: only path and query matter here. */
export function requestUrl(request: IncomingMessage): URL {
  try {
    return new URL(request.url ?? '/', 'http://observer.invalid');
  } catch {
    return new URL('http://observer.invalid/');
  }
}
