import { link, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomHex } from '../../common/random/random-hex';
import { workspaceError, WorkspaceErrors } from './workspace.errors';
import { errorCode } from './workspace-paths';

export const LOCK_FILE = '.lock';

export interface FolderLockTiming {
  /** A lock file older than this was left by a process that died holding it. */
  staleMs: number;
  /** How long to wait for a lock another process holds before refusing as busy. */
  waitMs: number;
}

// Holders only measure a folder and write one bounded file, so a lock this old is abandoned.
const DEFAULT_TIMING: FolderLockTiming = { staleMs: 30_000, waitMs: 10_000 };

// Within one process the tasks on a folder queue here, so only processes compete for the lock file.
const queues = new Map<string, Promise<void>>();

/**
 * Runs `task` while no other task holds `folder`'s lock, in this process or any other using the same
 * volume: the lock is `folder/.lock`, created with O_EXCL, so exactly one creator wins on any POSIX file
 * system. Creates `folder` if needed. Throws a 503 `WorkspaceBusy` when the lock stays taken past `waitMs`.
 */
export function withFolderLock<T>(
  folder: string,
  task: () => Promise<T>,
  timing: FolderLockTiming = DEFAULT_TIMING,
): Promise<T> {
  const run = (queues.get(folder) ?? Promise.resolve()).then(() => holdingLockFile(folder, task, timing));
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(folder, settled);
  void settled.then(() => {
    if (queues.get(folder) === settled) queues.delete(folder);
  });
  return run;
}

async function holdingLockFile<T>(folder: string, task: () => Promise<T>, timing: FolderLockTiming): Promise<T> {
  const lockFile = path.join(folder, LOCK_FILE);
  const token = `${process.pid}.${randomHex(8)}`;
  await acquire(folder, lockFile, token, timing);
  try {
    return await task();
  } finally {
    await release(lockFile, token);
  }
}

async function acquire(folder: string, lockFile: string, token: string, timing: FolderLockTiming): Promise<void> {
  const deadline = Date.now() + timing.waitMs;
  for (let attempt = 0; ; attempt += 1) {
    if (Date.now() > deadline) throw workspaceError(WorkspaceErrors.Busy, 'busy');
    try {
      await writeFile(lockFile, token, { flag: 'wx' });
      return;
    } catch (error) {
      const code = errorCode(error);
      if (code !== 'EEXIST' && code !== 'ENOENT') throw error;
      // No folder (new, or a sweep removed it while empty): make it and try again.
      if (code === 'ENOENT') {
        await mkdir(folder, { recursive: true });
        continue;
      }
    }
    if (await removedIfStale(lockFile, timing.staleMs)) continue;
    await sleep(Math.min(2 ** attempt, 50) + Math.random() * 5);
  }
}

/**
 * Removes an abandoned lock file. It is renamed away first and removed only if the renamed file is the one
 * seen stale; a fresh lock taken by mistake (another process broke the stale one first) is linked back.
 */
async function removedIfStale(lockFile: string, staleMs: number): Promise<boolean> {
  const seen = await lstat(lockFile).catch(() => undefined);
  if (!seen || Date.now() - seen.mtimeMs <= staleMs) return false;
  const moved = `${lockFile}.stale.${randomHex(6)}`;
  try {
    await rename(lockFile, moved);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return true;
    throw error;
  }
  try {
    const taken = await lstat(moved);
    if (taken.ino === seen.ino && taken.mtimeMs === seen.mtimeMs) return true;
    await link(moved, lockFile).catch(() => undefined);
    return false;
  } finally {
    await rm(moved, { force: true });
  }
}

/** Removes the lock file only while it is still this holder's (a stale break may have handed it on). */
async function release(lockFile: string, token: string): Promise<void> {
  const holder = await readFile(lockFile, 'utf8').catch(() => undefined);
  if (holder === token) await rm(lockFile, { force: true });
}
