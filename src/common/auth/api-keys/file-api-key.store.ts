import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { AppException } from '../../errors/app.exception';
import { ApiKeyRecord, parseApiKeyRecord } from './api-key-record';
import { ApiKeyStore } from './api-key.store';
import { ApiKeyErrors } from './api-keys.errors';
import { FileLockOptions, withFileLock } from './file-lock';

export const API_KEYS_FILE = 'api-keys.json';
const FORMAT_VERSION = 1;

/** The file as last read, and what identifies that version of it (inode, size, mtime). */
interface Snapshot {
  signature: string;
  records: Map<string, ApiKeyRecord>;
  /** Entries that are not valid keys: skipped when reading, and a reason to refuse rewriting the file. */
  invalid: number;
}

const empty = (): Snapshot => ({ signature: 'absent', records: new Map(), invalid: 0 });

const unavailable = (details: string): AppException => new AppException(ApiKeyErrors.StoreUnavailable, details);

/**
 * Keys in `DATA_DIR/api-keys.json`, shared by the service and the `keys` CLI. Every change re-reads the
 * file under a lock file, then writes a temp file and renames it into place, so concurrent writers lose
 * nothing and a reader sees the old file or the new one, never half of one. A reader re-parses only when
 * the file changed (inode, size or mtime), so a lookup costs one stat.
 */
export class FileApiKeyStore extends ApiKeyStore {
  private readonly file: string;
  private readonly lockFile: string;
  private readonly logger = new Logger('ApiKeyStore');
  private snapshot: Snapshot = empty();
  /** Changes made by this process run one after another; the lock file orders them with other processes. */
  private changes: Promise<unknown> = Promise.resolve();

  constructor(
    dataDir: string,
    private readonly lockOptions: Partial<FileLockOptions> = {},
  ) {
    super();
    this.file = path.join(dataDir, API_KEYS_FILE);
    this.lockFile = `${this.file}.lock`;
  }

  async find(keyId: string): Promise<ApiKeyRecord | undefined> {
    return (await this.current()).records.get(keyId);
  }

  async list(): Promise<ApiKeyRecord[]> {
    return [...(await this.current()).records.values()];
  }

  create(record: ApiKeyRecord): Promise<void> {
    return this.change((records) => {
      if (records.has(record.keyId)) throw unavailable('a key with this id already exists; try again');
      records.set(record.keyId, record);
      return { result: undefined, changed: true };
    });
  }

  revoke(keyId: string, at: number): Promise<ApiKeyRecord | undefined> {
    return this.change((records) => {
      const record = records.get(keyId);
      if (!record || record.revokedAt !== undefined) return { result: record, changed: false };
      const revoked = { ...record, revokedAt: at };
      records.set(keyId, revoked);
      return { result: revoked, changed: true };
    });
  }

  async touch(keyId: string, at: number): Promise<void> {
    try {
      await this.change((records) => {
        const record = records.get(keyId);
        if (!record || (record.lastUsedAt ?? 0) >= at) return { result: undefined, changed: false };
        records.set(keyId, { ...record, lastUsedAt: at });
        return { result: undefined, changed: true };
      });
    } catch (error) {
      this.logger.warn(`last_used_at of API key ${keyId} not recorded: ${describe(error)}`);
    }
  }

  close(): Promise<void> {
    return this.changes.then(() => undefined);
  }

  /** The file as it is now: the snapshot when the file has not changed since, else read again. */
  private async current(): Promise<Snapshot> {
    let signature: string;
    try {
      const stats = await stat(this.file);
      signature = `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.snapshot = empty());
      throw this.unreadable(error);
    }
    if (signature !== this.snapshot.signature) this.snapshot = { ...(await this.read()), signature };
    return this.snapshot;
  }

  private async read(): Promise<Omit<Snapshot, 'signature'>> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty();
      throw this.unreadable(error);
    }
    let keys: unknown;
    try {
      const document = JSON.parse(text) as { version?: unknown; keys?: unknown } | null;
      keys = document?.version === FORMAT_VERSION ? document.keys : undefined;
    } catch (error) {
      throw this.unreadable(error);
    }
    if (!Array.isArray(keys)) throw this.unreadable(new Error(`not an API key file (version ${FORMAT_VERSION})`));
    const records = new Map<string, ApiKeyRecord>();
    for (const entry of keys.map(parseApiKeyRecord)) if (entry) records.set(entry.keyId, entry);
    return { records, invalid: keys.length - records.size };
  }

  private change<T>(apply: (records: Map<string, ApiKeyRecord>) => { result: T; changed: boolean }): Promise<T> {
    const run = this.changes.then(() => this.changeLocked(apply));
    this.changes = run.catch(() => undefined);
    return run;
  }

  private async changeLocked<T>(apply: (records: Map<string, ApiKeyRecord>) => { result: T; changed: boolean }) {
    try {
      await mkdir(path.dirname(this.file), { recursive: true });
      return await withFileLock(
        this.lockFile,
        async () => {
          const { records, invalid } = await this.read();
          if (invalid > 0)
            throw this.unreadable(new Error(`${invalid} entries are not valid API keys; fix them first`));
          const { result, changed } = apply(records);
          if (changed) await this.write(records);
          return result;
        },
        this.lockOptions,
      );
    } catch (error) {
      if (error instanceof AppException) throw error;
      this.logger.warn(`${this.file} could not be written: ${describe(error)}`);
      throw unavailable('the API key file could not be written');
    }
  }

  private async write(records: Map<string, ApiKeyRecord>): Promise<void> {
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const document = { version: FORMAT_VERSION, keys: [...records.values()] };
    try {
      await writeFile(temporary, `${JSON.stringify(document, null, 2)}\n`, { encoding: 'utf8', mode: 0o600 });
      await rename(temporary, this.file);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }

  /** The cause goes to the log; the error a caller sees names no path. */
  private unreadable(error: unknown): AppException {
    this.logger.warn(`${this.file} could not be read: ${describe(error)}`);
    return unavailable('the API key file could not be read');
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
