import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { LRUCache } from 'lru-cache';
import { workspaceError, WorkspaceErrors } from './workspace.errors';

/** Files the service keeps in each workspace folder; tools can neither see nor touch them. */
export const OWNER_FILE = '.owner.json';
export const TOUCH_FILE = '.touched';

export function isReservedName(name: string): boolean {
  return name.startsWith('.owner') || name.startsWith('.touched');
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;
const ACCOUNT_FOLDER = /^[0-9a-f]{64}$/;

/** A session id a client may choose, which is also its folder's name. */
export function isSessionId(name: string): boolean {
  return SESSION_ID.test(name);
}

/**
 * The folder of one account's workspaces under the root: a SHA-256 of the account id, so any account id is a
 * safe folder name and two accounts never share a session folder, whatever session ids they choose.
 */
export function accountFolderName(accountId: string): string {
  let name = recentAccountFolders.get(accountId);
  if (name === undefined) {
    name = createHash('sha256').update(accountId, 'utf8').digest('hex');
    if (accountId.length <= MAX_CACHED_ACCOUNT_ID) recentAccountFolders.set(accountId, name);
  }
  return name;
}

/** Every chat turn names its account's folder, so recent accounts keep theirs rather than hashing per request. */
const recentAccountFolders = new LRUCache<string, string>({ max: 1024 });
const MAX_CACHED_ACCOUNT_ID = 256;

export function isAccountFolderName(name: string): boolean {
  return ACCOUNT_FOLDER.test(name);
}

/** The caller's path as shown in messages: JSON quoting keeps control characters visible. */
export function quote(relative: string): string {
  return JSON.stringify(relative);
}

/** POSIX `/x`, a backslash root `\x` or `\\server\share`, and a Windows drive `C:\x` or `C:x`. */
const ABSOLUTE = /^(?:[\\/]|[A-Za-z]:)/;

/**
 * The caller's path as workspace-relative segments, checked without touching the disk. Backslashes count as
 * separators, so a Windows-style `a\..\..\x` is caught like its POSIX twin.
 */
export function relativeSegments(relative: string): string[] {
  if (relative.length === 0) throw workspaceError(WorkspaceErrors.InvalidPath, 'pathEmpty');
  const shown = { path: quote(relative) };
  if (relative.includes('\0')) throw workspaceError(WorkspaceErrors.InvalidPath, 'pathNul', shown);
  if (ABSOLUTE.test(relative)) throw workspaceError(WorkspaceErrors.InvalidPath, 'pathAbsolute', shown);
  const normalised = path.posix.normalize(relative.replaceAll('\\', '/'));
  const segments = normalised.split('/').filter((segment) => segment !== '' && segment !== '.');
  // After normalising, `..` can only remain as a leading run.
  if (segments[0] === '..') throw workspaceError(WorkspaceErrors.InvalidPath, 'pathEscapes', shown);
  if (segments.some(isReservedName)) throw workspaceError(WorkspaceErrors.InvalidPath, 'pathReserved', shown);
  return segments;
}

export interface ResolvedPath {
  absolute: string;
  /** The target's own lstat, when it exists. */
  stats?: Stats;
  /** How many of the segments do not exist yet (the folders and file a write would create). */
  missing: number;
}

/**
 * Where `segments` lie inside the workspace folder `base` (a real path). Refuses a symbolic link on the way,
 * even one pointing inside, and a deepest existing folder whose real path lies outside `base`.
 */
export async function resolveInside(base: string, segments: string[], relative: string): Promise<ResolvedPath> {
  const baseStats = await lstatIfExists(base);
  if (!baseStats?.isDirectory()) throw workspaceError(WorkspaceErrors.Gone, 'gone');
  let deepest = base;
  let stats: Stats | undefined = baseStats;
  let missing = 0;
  for (const [index, segment] of segments.entries()) {
    const next = path.join(deepest, segment);
    stats = await lstatIfExists(next);
    if (!stats) {
      missing = segments.length - index;
      break;
    }
    if (stats.isSymbolicLink()) {
      throw workspaceError(WorkspaceErrors.InvalidPath, 'pathSymlink', { path: quote(relative) });
    }
    if (index < segments.length - 1 && !stats.isDirectory()) {
      const file = segments.slice(0, index + 1).join('/');
      throw workspaceError(WorkspaceErrors.InvalidPath, 'pathThroughFile', {
        path: quote(relative),
        file: quote(file),
      });
    }
    deepest = next;
  }
  const real = await realpath(deepest);
  if (real !== base && !real.startsWith(base + path.sep)) {
    throw workspaceError(WorkspaceErrors.InvalidPath, 'pathEscapes', { path: quote(relative) });
  }
  return { absolute: path.join(base, ...segments), stats, missing };
}

export async function lstatIfExists(target: string): Promise<Stats | undefined> {
  try {
    return await lstat(target);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The errno code of a file-system error; checked by shape, since `instanceof Error` fails across realms (jest). */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
