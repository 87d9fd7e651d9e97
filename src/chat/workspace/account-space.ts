import { lstat, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkspaceConfig } from '../../config/chat.config';
import { FolderLockTiming, withFolderLock } from './folder-lock';
import { workspaceError, WorkspaceErrors } from './workspace.errors';
import { isReservedName, isSessionId } from './workspace-paths';

export type AccountLimits = WorkspaceConfig['account'];

/** What a folder holds: bytes and count of its regular files, and its files and folders together (inodes). */
export interface FolderUsage {
  bytes: number;
  files: number;
  entries: number;
}

export interface AccountUsage {
  total: FolderUsage;
  /** By session id. */
  sessions: Map<string, FolderUsage>;
}

export const NO_USAGE: FolderUsage = { bytes: 0, files: 0, entries: 0 };

/**
 * One account's folder of workspaces and its quotas (WORKSPACE_ACCOUNT_MAX_*). The quotas are checked against
 * what is on disk, measured while holding the folder's lock: every replica sharing the volume sees the same
 * usage, and a removed workspace gives its share back with no counter to correct.
 */
export class AccountSpace {
  constructor(
    /** Absolute real path of the account's folder. */
    readonly folder: string,
    private readonly limits: AccountLimits,
    private readonly lockTiming?: FolderLockTiming,
  ) {}

  /** Runs `task` while no other task of this account runs, on this replica or another sharing the volume. */
  exclusive<T>(task: () => Promise<T>): Promise<T> {
    return withFolderLock(this.folder, task, this.lockTiming);
  }

  /** The session folders of the account. Call inside {@link exclusive} for a count that stays true. */
  async sessionIds(): Promise<string[]> {
    const entries = await readdir(this.folder, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() && isSessionId(entry.name)).map((entry) => entry.name);
  }

  /** Refuses one more workspace over WORKSPACE_ACCOUNT_MAX_SESSIONS. Call inside {@link exclusive}. */
  async assertRoomForSession(): Promise<void> {
    const sessions = (await this.sessionIds()).length;
    if (sessions >= this.limits.maxSessions) {
      throw workspaceError(WorkspaceErrors.QuotaExceeded, 'tooManySessions', { sessions });
    }
  }

  /** Call inside {@link exclusive}. */
  async usage(): Promise<AccountUsage> {
    const sessions = new Map<string, FolderUsage>();
    const total = { ...NO_USAGE };
    for (const id of await this.sessionIds()) {
      const usage = await measureFolder(path.join(this.folder, id), true);
      sessions.set(id, usage);
      total.bytes += usage.bytes;
      total.files += usage.files;
      total.entries += usage.entries;
    }
    return { total, sessions };
  }

  /** Refuses a write that grows the account by `addedBytes` and `addedEntries` past its quotas. */
  assertRoom(usage: AccountUsage, addedBytes: number, addedEntries: number): void {
    const { total } = usage;
    if (addedEntries > 0 && total.entries + addedEntries > this.limits.maxEntries) {
      throw workspaceError(WorkspaceErrors.QuotaExceeded, 'accountTooManyFiles', {
        needed: addedEntries,
        entries: total.entries,
        limit: this.limits.maxEntries,
      });
    }
    if (addedBytes > 0 && total.bytes + addedBytes > this.limits.maxBytes) {
      throw workspaceError(WorkspaceErrors.QuotaExceeded, 'accountFull', {
        total: total.bytes + addedBytes,
        limit: this.limits.maxBytes,
      });
    }
  }
}

/** What lies below `folder`, the service's marker files at its top left out; symbolic links are not followed. */
export async function measureFolder(folder: string, top: boolean): Promise<FolderUsage> {
  const usage = { ...NO_USAGE };
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (top && isReservedName(entry.name)) continue;
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      const inner = await measureFolder(child, false);
      usage.bytes += inner.bytes;
      usage.files += inner.files;
      usage.entries += inner.entries + 1;
    } else if (entry.isFile()) {
      usage.bytes += (await lstat(child)).size;
      usage.files += 1;
      usage.entries += 1;
    }
  }
  return usage;
}
