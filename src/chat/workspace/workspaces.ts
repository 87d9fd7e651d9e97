import { Logger } from '@nestjs/common';
import { randomHex } from '../../common/random/random-hex';
import { link, lstat, mkdir, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { WorkspaceConfig } from '../../config/chat.config';
import { resolveFromRoot } from '../../project-root';
import { AppException } from '../../common/errors/app.exception';
import { LocalizedDetails } from '../../common/errors/localized-details';
import { ChatErrors, invalidChatRequest } from '../chat.errors';
import { Workspace } from './workspace';
import { errorCode, lstatIfExists, OWNER_FILE, TOUCH_FILE } from './workspace-paths';
import type { SessionOwners } from './session-owners';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

const newSessionId = (): string => `sess_${randomHex(12)}`;

/** One session's workspace, opened (and its ownership checked) once, on first use. */
export class WorkspaceSession {
  private opened?: Promise<Workspace>;

  constructor(
    readonly sessionId: string,
    private readonly openWorkspace: () => Promise<Workspace>,
  ) {}

  workspace(): Promise<Workspace> {
    return (this.opened ??= this.openWorkspace());
  }
}

interface OwnerRecord {
  account: string;
  created: string;
}

/**
 * The per-session workspaces under WORKSPACE_ROOT (seed 004 §工作空间管理, SPEC §10): one folder per session id,
 * owned by the account that created it, removed once idle longer than WORKSPACE_TTL_S. With `owners` (Redis),
 * ownership also holds across replicas; the owner record in the folder is checked either way.
 */
export class Workspaces {
  readonly root: string;
  private readonly logger = new Logger('Workspaces');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly config: WorkspaceConfig,
    private readonly owners?: SessionOwners,
  ) {
    this.root = resolveFromRoot(config.root);
  }

  /**
   * A session whose folder is created only when a tool first needs it (most chat turns never touch a
   * file, and a turn without a session_id would otherwise leave a new folder behind every time).
   * A malformed id is refused here, before any I/O.
   */
  session(sessionId: string | undefined, accountId: string): WorkspaceSession {
    const id = sessionId === undefined ? newSessionId() : checkedSessionId(sessionId);
    return new WorkspaceSession(id, () => this.open(id, accountId));
  }

  /**
   * The workspace of `sessionId` (a new `sess_…` id when absent), created for `accountId` on first use.
   * Throws a 400 `InvalidChatRequest` for a malformed id and a 403 `SessionForbidden` for another account's session.
   */
  async open(sessionId: string | undefined, accountId: string): Promise<Workspace> {
    const id = sessionId === undefined ? newSessionId() : checkedSessionId(sessionId);
    const folder = path.join(await this.realRoot(), id);
    const ownerFile = path.join(folder, OWNER_FILE);
    const existing = await lstatIfExists(folder);
    if (existing && !existing.isDirectory()) throw notPlainFolder(id);
    // This volume's record is read first: a session held here is never offered to another account in Redis.
    const recorded = existing ? await readOwner(ownerFile) : undefined;
    if (recorded !== undefined) insistOwner(recorded, accountId);
    // A session held on another replica is refused before anything is created for it on this one.
    const sharedOwner = await this.owners?.claim(id, accountId);
    if (sharedOwner !== undefined) insistOwner({ account: sharedOwner }, accountId);
    if (!existing) {
      await mkdir(folder, { recursive: true });
      if (!(await lstat(folder)).isDirectory()) throw notPlainFolder(id);
    }
    if (recorded === undefined) insistOwner(await recordOwner(ownerFile, accountId), accountId);
    const workspace = new Workspace(id, folder, this.config);
    await workspace.touch();
    return workspace;
  }

  /** Removes the workspaces idle longer than the TTL and returns their session ids. */
  async sweep(now = Date.now()): Promise<string[]> {
    const root = await this.realRoot();
    const removed: string[] = [];
    for (const entry of await readdir(root, { withFileTypes: true })) {
      if (!entry.isDirectory() || !SESSION_ID.test(entry.name)) continue;
      try {
        if (await this.removeIfIdle(path.join(root, entry.name), now)) removed.push(entry.name);
      } catch (error) {
        this.logger.warn(`Could not sweep workspace ${entry.name}: ${describe(error)}`);
      }
    }
    return removed;
  }

  /** Sweeps every min(TTL/4, 300) seconds until `stop()`. */
  start(): void {
    if (this.timer) return;
    const seconds = Math.min(this.config.ttlSeconds / 4, 300);
    this.timer = setInterval(() => void this.sweepQuietly(), seconds * 1000);
    // Sweeping must never keep a finished process alive.
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Created on every use rather than at boot, so a root removed while running comes back. */
  private async realRoot(): Promise<string> {
    await mkdir(this.root, { recursive: true });
    return realpath(this.root);
  }

  private async removeIfIdle(folder: string, now: number): Promise<boolean> {
    const touched = (await lstatIfExists(path.join(folder, TOUCH_FILE))) ?? (await lstatIfExists(folder));
    if (!touched || now - touched.mtimeMs <= this.config.ttlSeconds * 1000) return false;
    // Only a real folder directly under the root is removed; rm never follows the links inside it.
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
  if (!SESSION_ID.test(sessionId)) {
    throw invalidChatRequest('sessionId', { param: 'session_id' });
  }
  return sessionId;
}

function notPlainFolder(sessionId: string): Error {
  return new Error(`workspace of session ${sessionId} is not a plain folder`);
}

function insistOwner(owner: { account?: unknown }, accountId: string): void {
  if (owner.account !== accountId) {
    throw new AppException(ChatErrors.SessionForbidden, new LocalizedDetails('chat.session.forbidden', {}));
  }
}

async function readOwner(ownerFile: string): Promise<{ account?: unknown } | undefined> {
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

/**
 * Writes the record beside its place and hard-links it there: the link fails when a concurrent open won, and
 * no reader ever sees a half-written record.
 */
async function recordOwner(ownerFile: string, accountId: string): Promise<{ account?: unknown }> {
  const record: OwnerRecord = { account: accountId, created: new Date().toISOString() };
  const draft = `${ownerFile}.${randomHex(6)}`;
  await writeFile(draft, JSON.stringify(record));
  try {
    await link(draft, ownerFile);
    return record;
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    return (await readOwner(ownerFile)) ?? {};
  } finally {
    await rm(draft, { force: true });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
