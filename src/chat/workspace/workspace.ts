import { constants } from 'node:fs';
import { lstat, lutimes, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { AppException } from '../../common/errors/app.exception';
import type { WorkspaceConfig } from '../../config/chat.config';
import { AccountSpace, NO_USAGE } from './account-space';
import { workspaceError, WorkspaceErrors } from './workspace.errors';
import { errorCode, quote, relativeSegments, resolveInside, TOUCH_FILE } from './workspace-paths';

export type WorkspaceEncoding = 'utf-8' | 'gbk' | 'ascii';
export type WorkspaceLimits = Pick<WorkspaceConfig, 'maxFileBytes' | 'maxBytes' | 'maxFiles'>;

export interface WrittenFile {
  path: string;
  bytes: number;
}

export interface WorkspaceEntry {
  /** Relative to the workspace root, `/`-separated. */
  path: string;
  type: 'file' | 'directory';
  size: number;
}

// O_NOFOLLOW closes the gap between the symlink check and the open; Windows has no such flag.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW;
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW;

/**
 * One session's folder (seed 004 §工作空间管理). Paths are checked before any I/O, symbolic links are never
 * followed, and every failure the model can act on is a `WorkspaceErrors` AppException.
 */
export class Workspace {
  constructor(
    readonly sessionId: string,
    /** Absolute real path of the folder. */
    readonly path: string,
    private readonly limits: WorkspaceLimits,
    /** The account's folder this workspace lies in: writes run under its lock, within its quotas. */
    private readonly account: AccountSpace,
  ) {}

  async read(relative: string, encoding: WorkspaceEncoding = 'utf-8'): Promise<string> {
    const segments = relativeSegments(relative);
    return this.translated(relative, async () => {
      const { absolute, stats } = await resolveInside(this.path, segments, relative);
      if (!stats) throw workspaceError(WorkspaceErrors.PathNotFound, 'fileNotFound', { path: quote(relative) });
      assertFile(stats, relative);
      if (stats.size > this.limits.maxFileBytes) {
        const limit = this.limits.maxFileBytes;
        throw workspaceError(WorkspaceErrors.LimitExceeded, 'fileTooLarge', {
          path: quote(relative),
          bytes: stats.size,
          limit,
        });
      }
      await this.touch();
      return decode(await readFile(absolute, { flag: READ_FLAGS }), encoding, relative);
    });
  }

  /** Writes `content` as UTF-8, creating parent folders and replacing an existing file. */
  async write(relative: string, content: string): Promise<WrittenFile> {
    const segments = relativeSegments(relative);
    const bytes = Buffer.byteLength(content, 'utf8');
    if (bytes > this.limits.maxFileBytes) {
      throw workspaceError(WorkspaceErrors.LimitExceeded, 'writeTooLarge', { bytes, limit: this.limits.maxFileBytes });
    }
    // One write of an account at a time, on every replica: two writes cannot both pass the limits.
    return this.translated(relative, () =>
      this.account.exclusive(async () => {
        const { absolute, stats, missing } = await resolveInside(this.path, segments, relative);
        if (stats) assertFile(stats, relative);
        await this.assertRoom(bytes, stats?.size, missing);
        await this.touch();
        await mkdir(path.dirname(absolute), { recursive: true });
        await writeFile(absolute, content, { flag: WRITE_FLAGS });
        return { path: segments.join('/'), bytes };
      }),
    );
  }

  /** One level of a folder, sorted by name, hidden entries left out. */
  async list(relative = '.'): Promise<WorkspaceEntry[]> {
    const segments = relativeSegments(relative);
    return this.translated(relative, async () => {
      const { absolute, stats } = await resolveInside(this.path, segments, relative);
      if (!stats) throw workspaceError(WorkspaceErrors.PathNotFound, 'folderNotFound', { path: quote(relative) });
      if (!stats.isDirectory())
        throw workspaceError(WorkspaceErrors.WrongKind, 'notAFolder', { path: quote(relative) });
      await this.touch();
      const entries = (await readdir(absolute, { withFileTypes: true }))
        .filter((entry) => !entry.name.startsWith('.') && (entry.isFile() || entry.isDirectory()))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return Promise.all(
        entries.map(async (entry): Promise<WorkspaceEntry> => {
          const entryPath = [...segments, entry.name].join('/');
          if (entry.isDirectory()) return { path: entryPath, type: 'directory', size: 0 };
          return { path: entryPath, type: 'file', size: (await lstat(path.join(absolute, entry.name))).size };
        }),
      );
    });
  }

  /** Marks the workspace as used now: the sweep measures idle time from this marker's mtime. */
  async touch(): Promise<void> {
    const marker = path.join(this.path, TOUCH_FILE);
    const now = new Date();
    try {
      await lutimes(marker, now, now);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      await writeFile(marker, '');
    }
  }

  /** The workspace's own limits first, then the account's quotas, measured in one pass. */
  private async assertRoom(bytes: number, replacedBytes: number | undefined, missing: number): Promise<void> {
    const accountUsage = await this.account.usage();
    const usage = accountUsage.sessions.get(this.sessionId) ?? NO_USAGE;
    if (replacedBytes === undefined && usage.files >= this.limits.maxFiles) {
      throw workspaceError(WorkspaceErrors.LimitExceeded, 'tooManyFiles', { files: usage.files });
    }
    const total = usage.bytes - (replacedBytes ?? 0) + bytes;
    if (total > this.limits.maxBytes) {
      throw workspaceError(WorkspaceErrors.LimitExceeded, 'workspaceFull', {
        bytes,
        total,
        limit: this.limits.maxBytes,
      });
    }
    this.account.assertRoom(accountUsage, bytes - (replacedBytes ?? 0), missing);
  }

  /** File-system errors carry host paths; the model gets the caller's path and the error code instead. */
  private async translated<T>(relative: string, task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } catch (error) {
      const code = errorCode(error);
      if (error instanceof AppException || code === undefined) throw error;
      throw fileSystemError(code, relative);
    }
  }
}

function assertFile(stats: { isFile(): boolean; isDirectory(): boolean }, relative: string): void {
  if (stats.isDirectory()) throw workspaceError(WorkspaceErrors.WrongKind, 'notAFile', { path: quote(relative) });
  if (!stats.isFile()) throw workspaceError(WorkspaceErrors.WrongKind, 'notRegular', { path: quote(relative) });
}

function decode(bytes: Buffer, encoding: WorkspaceEncoding, relative: string): string {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    // A UTF-8 read of Chinese text that fails is most often GBK: the details say so.
    throw workspaceError(WorkspaceErrors.NotText, encoding === 'utf-8' ? 'notUtf8Text' : 'notText', {
      path: quote(relative),
      encoding,
    });
  }
}

function fileSystemError(code: string, relative: string): AppException {
  const shown = { path: quote(relative) };
  switch (code) {
    case 'ENOENT':
      return workspaceError(WorkspaceErrors.PathNotFound, 'pathNotFound', shown);
    case 'ENAMETOOLONG':
      return workspaceError(WorkspaceErrors.InvalidPath, 'pathTooLong', shown);
    case 'ELOOP':
      return workspaceError(WorkspaceErrors.InvalidPath, 'pathSymlink', shown);
    case 'ENOSPC':
    case 'EDQUOT':
      return workspaceError(WorkspaceErrors.StorageFull, 'diskFull');
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return workspaceError(WorkspaceErrors.Unavailable, 'unavailable');
    default:
      return workspaceError(WorkspaceErrors.AccessFailed, 'accessFailed', { ...shown, code });
  }
}
