/**
 * The feedback page's access token, kept per config directory in `<config dir>/ccc/mcp-page-token`
 * (mode 0600), so that the page keeps one address across restarts of `ccc mcp` when its port is
 * fixed: a bookmark keeps working. The file is created atomically and never overwritten by a
 * second server starting at the same moment (the first one's token wins, both use it). A file
 * that others could read, that is not a plain file of ours, or that holds no token is replaced by
 * a new token, with a warning: the old address then stops working, which is the point.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../state/atomic-file.js';
import { cccDir } from '../../state/paths.js';
import { errorText } from '../../errors.js';

export const PAGE_TOKEN_FILE = 'mcp-page-token';
/** What ccc writes: 18 random bytes in base64url (24 characters); longer ones are accepted. */
const TOKEN = /^[A-Za-z0-9_-]{24,256}$/;

export function newPageToken(): string {
  return randomBytes(18).toString('base64url');
}

type Found = { token: string } | { problem: string } | undefined;

/**
 * The token of this config directory, created on first use. `warn` hears of a file replaced, or
 * of a token that could not be kept (a read-only config dir: this run's token is then its own).
 */
export async function loadPageToken(configDir: string, warn: (message: string) => void): Promise<string> {
  let file = path.join(configDir, 'ccc', PAGE_TOKEN_FILE);
  try {
    file = path.join(cccDir(configDir), PAGE_TOKEN_FILE);
    let found = await readToken(file);
    if (found === undefined) {
      const token = newPageToken();
      if (await createExclusive(file, token)) return token;
      // Another ccc mcp created it a moment ago: share its token.
      found = await readToken(file);
    }
    if (found && 'token' in found) return found.token;
    const token = newPageToken();
    await writeFileAtomic(file, `${token}\n`, { mode: 0o600 });
    warn(
      `the feedback page's token file ${file} ${found?.problem ?? 'vanished while it was read'}; it now holds a new token (an address saved with the old one no longer opens the page)`,
    );
    return token;
  } catch (error) {
    warn(
      `cannot keep the feedback page's token in ${file} (${errorText(error)}); this run uses a token of its own, so the page's address changes at every start`,
    );
    return newPageToken();
  }
}

/** The token in `file`, what is wrong with the file, or undefined when there is no file. */
async function readToken(file: string): Promise<Found> {
  let handle: fs.FileHandle;
  try {
    // O_NOFOLLOW: a symlink planted here must not lend its target's content as our token.
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') return { problem: 'is a symbolic link' };
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { problem: 'is not a regular file' };
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return { problem: `belongs to another user (uid ${stat.uid})` };
    if ((stat.mode & 0o077) !== 0) return { problem: `could be read by others (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')})` };
    const token = (await handle.readFile('utf8')).trim();
    return TOKEN.test(token) ? { token } : { problem: 'does not hold a token' };
  } finally {
    await handle.close();
  }
}

/**
 * Creates `file` with `token`, complete, or not at all: the content goes into a temp file that is
 * then hard-linked to the name, which fails when the name exists. False when it existed.
 */
async function createExclusive(file: string, token: string): Promise<boolean> {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFileAtomic(temp, `${token}\n`, { mode: 0o600 });
  try {
    await fs.link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await fs.rm(temp, { force: true });
  }
}
