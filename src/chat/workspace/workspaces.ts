import { Logger } from '@nestjs/common';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { randomHex } from '../../common/random/random-hex';
import type { WorkspaceConfig } from '../../config/chat.config';
import { resolveFromRoot } from '../../project-root';
import { AppException } from '../../common/errors/app.exception';
import { LocalizedDetails } from '../../common/errors/localized-details';
import { ChatErrors, invalidChatRequest } from '../chat.errors';
import { AccountSpace } from './account-space';
import type { FolderLockTiming } from './folder-lock';
import { Workspace } from './workspace';
import { workspaceError, WorkspaceErrors } from './workspace.errors';
import {
  accountFolderName,
  errorCode,
  isAccountFolderName,
  isSessionId,
  lstatIfExists,
  OWNER_FILE,
  TOUCH_FILE,
} from './workspace-paths';

const newSessionId = (): string => `sess_${randomHex(12)}`;

/** One session's workspace, opened (and its quotas checked) once, on first use. */
export class WorkspaceSession {
  private opened?: Promise<Workspace>;

  constructor(
    readonly sessionId: string,
    /** `<account folder>/<session id>`, relative to WORKSPACE_ROOT. */
    readonly folder: string,
    private readonly openWorkspace: () => Promise<Workspace>,
  ) {}

  workspace(): Promise<Workspace> {
    return (this.opened ??= this.openWorkspace());
  }
}

interface OwnerRecord {
  account?: unknown;
  created?: string;
  /** The server named the session (the client sent no session_id): it lives WORKSPACE_EPHEMERAL_TTL_S. */
  ephemeral?: boolean;
}

/**
 * The per-session workspaces under WORKSPACE_ROOT (seed 004 §工作空间管理, SPEC §10), one folder per account
 * and session: `<root>/<sha256 of the account id>/<session id>`. A session id therefore names a workspace only
 * within its account, and another account choosing the same id gets a workspace of its own. Each account is held
 * to WORKSPACE_ACCOUNT_MAX_* under its folder's lock; idle workspaces are removed after their TTL.
 */
export class Workspaces {
  readonly root: string;
  private readonly logger = new Logger('Workspaces');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: WorkspaceConfig,
    private readonly lockTiming?: FolderLockTiming,
  ) {
    this.root = resolveFromRoot(config.root);
  }

  /**
   * A session whose folder is created only when a tool first needs it (most chat turns never touch a
   * file, and a turn without a session_id would otherwise leave a new folder behind every time).
   * A malformed id is refused here, before any I/O.
   */
  session(sessionId: string | undefined, accountId: string): WorkspaceSession {
    const ephemeral = sessionId === undefined;
    const id = ephemeral ? newSessionId() : checkedSessionId(sessionId);
    const folder = `${accountFolderName(accountId)}/${id}`;
    return new WorkspaceSession(id, folder, () => this.openNow(id, accountId, ephemeral));
  }

  /**
   * The workspace of `sessionId` within `accountId`'s own (a new, short-lived `sess_…` one when absent), created on
   * first use. Throws a 400 `InvalidChatRequest` for a malformed id, a `WorkspaceQuotaExceeded` for a new workspace
   * over WORKSPACE_ACCOUNT_MAX_SESSIONS and a 503 `WorkspaceUnavailable` when WORKSPACE_ROOT cannot be written.
   */
  async open(sessionId: string | undefined, accountId: string): Promise<Workspace> {
    return this.session(sessionId, accountId).workspace();
  }

  /** Removes the workspaces idle longer than their TTL and returns them as `<account folder>/<session id>`. */
  async sweep(now = Date.now()): Promise<string[]> {
    const root = await this.realRoot();
    const removed: string[] = [];
    for (const entry of await readdir(root, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const folder = path.join(root, entry.name);
      try {
        if (await lstatIfExists(path.join(folder, OWNER_FILE))) {
          // A session folder of the layout before accounts had folders: swept like any other.
          if (isSessionId(entry.name) && (await this.removeIfIdle(folder, now))) removed.push(entry.name);
        } else if (isAccountFolderName(entry.name)) {
          removed.push(...(await this.sweepAccount(folder, now)).map((id) => `${entry.name}/${id}`));
        }
      } catch (error) {
        this.logger.warn(`Could not sweep workspaces ${entry.name}: ${describe(error)}`);
      }
    }
    return removed;
  }

  /** Sweeps every min(shorter TTL / 4, 300) seconds until `stop()`. */
  start(): void {
    if (this.timer) return;
    const seconds = Math.min(Math.min(this.config.ttlSeconds, this.config.ephemeralTtlSeconds) / 4, 300);
    this.timer = setInterval(() => void this.sweepQuietly(), seconds * 1000);
    // Sweeping must never keep a finished process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private openNow(id: string, accountId: string, ephemeral: boolean): Promise<Workspace> {
    return this.storageAvailable(async () => {
      const folder = path.join(await this.realRoot(), accountFolderName(accountId));
      const account = new AccountSpace(folder, this.config.account, this.lockTiming);
      return account.exclusive(async () => {
        if (!(await lstat(folder)).isDirectory()) throw notPlainFolder(id);
        const sessionFolder = path.join(folder, id);
        const existing = await lstatIfExists(sessionFolder);
        if (existing && !existing.isDirectory()) throw notPlainFolder(id);
        if (!existing) {
          await account.assertRoomForSession();
          await mkdir(sessionFolder);
        }
        await insistOwner(path.join(sessionFolder, OWNER_FILE), accountId, ephemeral);
        const workspace = new Workspace(id, sessionFolder, this.config, account);
        await workspace.touch();
        return workspace;
      });
    });
  }

  /** An unwritable or full WORKSPACE_ROOT is the operator's to fix: logged here, a clear refusal to the caller. */
  private async storageAvailable<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      const code = errorCode(error);
      if (error instanceof AppException || code === undefined) throw error;
      if (code === 'ENOSPC' || code === 'EDQUOT') throw workspaceError(WorkspaceErrors.StorageFull, 'diskFull');
      if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') throw error;
      const user = process.getuid?.() ?? 'unknown';
      this.logger.error(
        `Cannot write workspaces under ${this.root} (${code}): make WORKSPACE_ROOT writable by uid ${user}`,
      );
      throw workspaceError(WorkspaceErrors.Unavailable, 'unavailable');
    }
  }

  /** Created on every use rather than at boot, so a root removed while running comes back. */
  private async realRoot(): Promise<string> {
    await mkdir(this.root, { recursive: true });
    return realpath(this.root);
  }

  private async sweepAccount(folder: string, now: number): Promise<string[]> {
    const account = new AccountSpace(folder, this.config.account, this.lockTiming);
    const { removed, left } = await account.exclusive(async () => {
      const ids = await account.sessionIds();
      const gone: string[] = [];
      for (const id of ids) {
        try {
          if (await this.removeIfIdle(path.join(folder, id), now)) gone.push(id);
        } catch (error) {
          this.logger.warn(`Could not sweep workspace ${id}: ${describe(error)}`);
        }
      }
      return { removed: gone, left: ids.length - gone.length };
    });
    // An account with no workspace keeps no folder; rmdir fails harmlessly while another replica holds its lock.
    if (left === 0) await rmdir(folder).catch(() => undefined);
    return removed;
  }

  private async removeIfIdle(folder: string, now: number): Promise<boolean> {
    const touched = (await lstatIfExists(path.join(folder, TOUCH_FILE))) ?? (await lstatIfExists(folder));
    const owner = await readOwner(path.join(folder, OWNER_FILE));
    const ttlSeconds = owner?.ephemeral === true ? this.config.ephemeralTtlSeconds : this.config.ttlSeconds;
    if (!touched || now - touched.mtimeMs <= ttlSeconds * 1000) return false;
    // Only a real folder is removed; rm never follows the links inside it.
    if (!(await lstatIfExists(folder))?.isDirectory()) return false;
    await rm(folder, { recursive: true, force: true });
    return true;
  }

  private async sweepQuietly(): Promise<void> {
    try {
      const removed = await this.sweep();
      if (removed.length > 0) this.logger.debug(`Removed ${removed.length} idle workspaces`);
    } catch (error) {
      this.logger.warn(`Workspace sweep failed: ${describe(error)}`);
    }
  }
}

function checkedSessionId(sessionId: string): string {
  if (!isSessionId(sessionId)) {
    throw invalidChatRequest('sessionId', { param: 'session_id' });
  }
  return sessionId;
}

function notPlainFolder(sessionId: string): Error {
  return new Error(`workspace of session ${sessionId} is not a plain folder`);
}

/**
 * Records the owner of a new folder, or checks the record of an existing one. The account folder already keeps
 * accounts apart; the record is the second wall, and it says how long the workspace lives. Runs under the lock.
 */
async function insistOwner(ownerFile: string, accountId: string, ephemeral: boolean): Promise<void> {
  const recorded = await readOwner(ownerFile);
  if (recorded === undefined) {
    const record: OwnerRecord = { account: accountId, created: new Date().toISOString() };
    if (ephemeral) record.ephemeral = true;
    // Written beside its place and renamed there, so no reader ever sees half a record.
    const draft = `${ownerFile}.${randomHex(6)}`;
    await writeFile(draft, JSON.stringify(record));
    await rename(draft, ownerFile);
  } else if (recorded.account !== accountId) {
    throw new AppException(ChatErrors.SessionForbidden, new LocalizedDetails('chat.session.forbidden', {}));
  }
}

async function readOwner(ownerFile: string): Promise<OwnerRecord | undefined> {
  let text: string;
  try {
    text = await readFile(ownerFile, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const record: unknown = JSON.parse(text);
    // An unreadable record names no owner, so nobody may use the folder.
    return typeof record === 'object' && record !== null ? record : {};
  } catch {
    return {};
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
