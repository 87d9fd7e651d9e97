import { createHash, randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { fileSha256, INDEX_FORMAT_VERSION } from './index-key';

/** The sidecar written beside each index file once it is complete: what the file must be to be served. */
interface IndexChecksum {
  format: number;
  key: string;
  size: number;
  sha256: string;
}

export type IndexCheck = { valid: true } | { valid: false; reason: string };

/**
 * INDEX_DIR: one SQLite file per network folder and content key, `<folder>.<place>.<key>.sqlite`, with a
 * `.sha256` sidecar. A file is written under a temporary name and renamed into place only once complete
 * and checksummed, so a crash leaves a stray temporary file, never a half index under a real name.
 */
export class IndexDirectory {
  constructor(
    readonly dir: string,
    readonly readOnly: boolean,
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
   * Whether the file at `file` is a complete index for `key`: its sidecar names this format and key,
   * and the file has the recorded size and sha256 (a truncated, edited or foreign file fails).
   */
  check(file: string, key: string): IndexCheck {
    if (!existsSync(file)) return { valid: false, reason: 'no index file' };
    let sum: IndexChecksum;
    try {
      sum = JSON.parse(readFileSync(`${file}.sha256`, 'utf8')) as IndexChecksum;
    } catch {
      return { valid: false, reason: 'no readable checksum beside the index file' };
    }
    if (sum.format !== INDEX_FORMAT_VERSION) return { valid: false, reason: `index format ${sum.format}` };
    if (sum.key !== key) return { valid: false, reason: 'index built from other sources' };
    if (statSync(file).size !== sum.size) return { valid: false, reason: 'index file size differs from its checksum' };
    if (fileSha256(file) !== sum.sha256) return { valid: false, reason: 'index file checksum mismatch' };
    return { valid: true };
  }

  /**
   * Runs `build` on a temporary file in this directory, then checksums it and renames it to `fileFor`;
   * the temporary file is removed if anything fails.
   */
  async publish<T>(folder: string, key: string, build: (file: string) => Promise<T>): Promise<T> {
    const file = this.fileFor(folder, key);
    const temporary = path.join(this.dir, `.building-${process.pid}-${randomBytes(6).toString('hex')}.sqlite`);
    try {
      const result = await build(temporary);
      const sum: IndexChecksum = {
        format: INDEX_FORMAT_VERSION,
        key,
        size: statSync(temporary).size,
        sha256: fileSha256(temporary),
      };
      writeFileSync(`${temporary}.sha256`, JSON.stringify(sum));
      // The file first: a crash between the two renames leaves a file without its sidecar, which `check` rejects.
      renameSync(temporary, file);
      renameSync(`${temporary}.sha256`, `${file}.sha256`);
      return result;
    } finally {
      for (const leftover of [temporary, `${temporary}.sha256`, `${temporary}-journal`])
        rmSync(leftover, { force: true });
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

  /** The folder's name (made file-safe) and a hash of its absolute path, so two KN_DIRs never share names. */
  private prefix(folder: string): string {
    const absolute = path.resolve(folder);
    const name = path
      .basename(absolute)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 64);
    const place = createHash('sha256').update(absolute).digest('hex').slice(0, 8);
    return `${name}.${place}.`;
  }
}
