import { Logger } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import type { IndexVerify } from '../../config/kn.config';
import { fileIdentity, sqliteHeaderFits } from './file-identity';
import { fileSha256, INDEX_FORMAT_VERSION } from './index-key';
import { SourceManifest, unchangedSources } from './source-manifest';

/** Name prefix of the temporary file a build writes before it is renamed into place. */
const BUILDING = '.building-';
/** A temporary build file unchanged for this long belongs to no running build. */
const ABANDONED_MS = 3600_000;

/** The sidecar written beside each index file once it is complete: what the file must be to be served. */
interface IndexChecksum {
  format: number;
  key: string;
  size: number;
  sha256: string;
  /** The file's identity (see fileIdentity) when its sha256 last matched: unchanged, it is not read again. */
  identity?: string;
  /** The sources the key was computed from, so an unchanged folder is not hashed again. */
  sources?: SourceManifest;
}

/** A valid index file and the identity it had when checked (by its recorded identity, or by reading it). */
export type IndexCheck =
  { valid: true; identity: string; by: 'identity' | 'checksum' } | { valid: false; reason: string };

/**
 * INDEX_DIR: one SQLite file per network folder and content key, `<folder>.<place>.<key>.sqlite`, with a
 * `.sha256` sidecar. A file is written under a temporary name and renamed into place only once complete
 * and checksummed, so a crash leaves a stray temporary file, never a half index under a real name.
 */
export class IndexDirectory {
  private readonly logger = new Logger('IndexDirectory');

  constructor(
    readonly dir: string,
    readonly readOnly: boolean,
    readonly verify: IndexVerify = 'changed',
  ) {}

  /** Why this directory cannot hold indexes (missing, or not writable when this process builds), or undefined. */
  unusableReason(): string | undefined {
    try {
      if (this.readOnly) {
        accessSync(this.dir, constants.R_OK);
        return undefined;
      }
      mkdirSync(this.dir, { recursive: true });
      const probe = path.join(this.dir, `.probe-${process.pid}-${randomBytes(4).toString('hex')}`);
      writeFileSync(probe, '');
      rmSync(probe);
      return undefined;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code ?? String(error);
    }
  }

  /** Where the index of `folder` with this key lives (it may not exist yet). */
  fileFor(folder: string, key: string): string {
    return path.join(this.dir, `${this.prefix(folder)}${key.slice(0, 32)}.sqlite`);
  }

  /**
   * Whether the file at `file` is a complete index for `key`: its sidecar names this format and key, and
   * the file has the recorded size and sha256 (a truncated, edited or foreign file fails). With
   * INDEX_VERIFY=changed a file whose identity is the one recorded when its sha256 last matched, and
   * whose SQLite header accounts for its size, is not read again.
   */
  check(file: string, key: string): IndexCheck {
    if (!existsSync(file)) return { valid: false, reason: 'no index file' };
    const check = this.checkPresent(file, key);
    if (!check.valid) this.refuse(file, check.reason);
    return check;
  }

  /**
   * Says, as a warning, that an index file that is there is not served and why (a corrupt, foreign or
   * outdated file): the caller builds it again, or with INDEX_READ_ONLY fails. A missing file is no news.
   */
  refuse(file: string, reason: string): void {
    const then = this.readOnly ? 'INDEX_READ_ONLY: not rebuilt here' : 'rebuilding it';
    this.logger.warn(`index file ${path.basename(file)} is not served (${reason}); ${then}`);
  }

  private checkPresent(file: string, key: string): IndexCheck {
    const sum = readChecksum(file);
    if (!sum) return { valid: false, reason: 'no readable checksum beside the index file' };
    if (sum.format !== INDEX_FORMAT_VERSION) return { valid: false, reason: `index format ${sum.format}` };
    if (sum.key !== key) return { valid: false, reason: 'index built from other sources' };
    const identity = fileIdentity(file);
    if (statSync(file).size !== sum.size) return { valid: false, reason: 'index file size differs from its checksum' };
    if (this.verify === 'changed' && sum.identity === identity) {
      if (!sqliteHeaderFits(file, sum.size)) return { valid: false, reason: 'index file header does not fit its size' };
      return { valid: true, identity, by: 'identity' };
    }
    if (fileSha256(file) !== sum.sha256) return { valid: false, reason: 'index file checksum mismatch' };
    // Written to while it was read: what was hashed may not be what is there now.
    if (fileIdentity(file) !== identity) return { valid: false, reason: 'index file changed while it was checked' };
    return { valid: true, identity, by: 'checksum' };
  }

  /**
   * Records in the sidecar of a checked file its identity and the sources its key came from, so the next
   * start checks neither by reading them (nothing is written when read-only or already recorded).
   */
  remember(file: string, identity: string, sources: SourceManifest): void {
    if (this.readOnly) return;
    const sum = readChecksum(file);
    if (!sum) return;
    const updated: IndexChecksum = { ...sum, identity, sources: sources.files ? sources : sum.sources };
    if (JSON.stringify(updated) !== JSON.stringify(sum)) this.writeChecksum(file, updated);
  }

  /**
   * The recorded sources of this folder's index files whose files are all still there, unchanged: the
   * folder's hash without reading it. Undefined when any file was added, removed or touched.
   */
  knownSources(folder: string): SourceManifest | undefined {
    const prefix = this.prefix(folder);
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((name) => name.startsWith(prefix) && name.endsWith('.sqlite.sha256'));
    } catch {
      return undefined;
    }
    for (const name of names) {
      const sum = readChecksum(path.join(this.dir, name.slice(0, -'.sha256'.length)));
      if (sum?.format === INDEX_FORMAT_VERSION && sum.sources && unchangedSources(folder, sum.sources))
        return sum.sources;
    }
    return undefined;
  }

  /**
   * Runs `build` on a temporary file in this directory, then checksums it and renames it to `fileFor`;
   * the temporary file is removed if anything fails.
   */
  async publish<T>(
    folder: string,
    key: string,
    build: (file: string) => Promise<T>,
    sources?: SourceManifest,
  ): Promise<T> {
    const file = this.fileFor(folder, key);
    this.removeAbandonedBuilds();
    const temporary = path.join(this.dir, `${BUILDING}${process.pid}-${randomBytes(6).toString('hex')}.sqlite`);
    try {
      const result = await build(temporary);
      const size = statSync(temporary).size;
      const sha256 = fileSha256(temporary);
      // The file first: a crash before its sidecar is in place leaves a file `check` rejects.
      renameSync(temporary, file);
      // The identity after the rename (which sets the change time) is the one later starts will see.
      const sum: IndexChecksum = { format: INDEX_FORMAT_VERSION, key, size, sha256, identity: fileIdentity(file) };
      this.writeChecksum(file, sources?.files ? { ...sum, sources } : sum);
      return result;
    } finally {
      for (const leftover of [temporary, `${temporary}-journal`]) rmSync(leftover, { force: true });
    }
  }

  /**
   * Temporary files no build has written to for ABANDONED_MS: left by a process killed mid-build (a
   * 10M-instance build leaves gigabytes). Judged by age, not pid: replicas sharing the volume have
   * their own pid namespaces, and a running build writes all the time.
   */
  private removeAbandonedBuilds(): void {
    const before = Date.now() - ABANDONED_MS;
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return; // no directory yet: nothing was left in it
    }
    for (const name of names) {
      if (!name.startsWith(BUILDING)) continue;
      const leftover = path.join(this.dir, name);
      try {
        if (statSync(leftover).mtimeMs < before) rmSync(leftover, { force: true });
      } catch {
        // Removed meanwhile by the build that owned it, or by another replica.
      }
    }
  }

  /** Removes an index file and its sidecar (processes that have it open keep reading it until they close it). */
  remove(file: string): void {
    if (this.readOnly || path.dirname(file) !== this.dir) return;
    rmSync(`${file}.sha256`, { force: true });
    rmSync(file, { force: true });
  }

  /** Removes the other index files of the same folder: earlier contents, other formats or models. */
  removeOthers(folder: string, keep: string): void {
    if (this.readOnly) return;
    const prefix = this.prefix(folder);
    for (const name of readdirSync(this.dir)) {
      if (name.startsWith(prefix) && name.endsWith('.sqlite') && path.join(this.dir, name) !== keep)
        this.remove(path.join(this.dir, name));
    }
  }

  /** Writes a sidecar under a temporary name and renames it into place: readers see the old one or the new one. */
  private writeChecksum(file: string, sum: IndexChecksum): void {
    const temporary = path.join(this.dir, `.checksum-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      writeFileSync(temporary, JSON.stringify(sum));
      renameSync(temporary, `${file}.sha256`);
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  /**
   * The folder's name (made file-safe) and a hash of its real path, so two KN_DIRs never share names and
   * one folder reached through a symbolic link (a mounted volume, a `current` link) finds the index built
   * through another path rather than building its own.
   */
  private prefix(folder: string): string {
    const absolute = realPath(folder);
    const name = path
      .basename(absolute)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 64);
    const place = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
    return `${name}.${place}.`;
  }
}

/** The folder's path with symbolic links resolved; its absolute path when it cannot be (not there yet). */
function realPath(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

function readChecksum(file: string): IndexChecksum | undefined {
  try {
    return JSON.parse(readFileSync(`${file}.sha256`, 'utf8')) as IndexChecksum;
  } catch {
    return undefined;
  }
}

/** Where a served network's index lives and how it came to be, for /health. */
export interface IndexInfo {
  /** The content key (format version, embedding model, source files) the index was built for. */
  hash: string;
  storage: 'file' | 'memory';
  file?: string;
  /** When the index was written (an index opened from a file keeps its build time). */
  builtAt: string;
  buildMs: number;
  /** Opened from an existing file rather than built now. */
  reused: boolean;
  /** How a reused file was found intact: by its recorded identity, or by reading its whole sha256. */
  checked?: 'identity' | 'checksum';
}
