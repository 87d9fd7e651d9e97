import { BigIntStats, closeSync, openSync, readSync, statSync } from 'node:fs';

/**
 * What a file is on disk without reading it: size, inode, and modification and change times in
 * nanoseconds. A write, a truncation or a file renamed over it changes it; the change time is set by
 * the kernel and no program can set it back. It does not see bytes that change without a write
 * (a failing disk): that is what a full checksum is for.
 */
export function identityOf(stats: BigIntStats): string {
  return `${stats.size}:${stats.ino}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

export function fileIdentity(file: string): string {
  return identityOf(statSync(file, { bigint: true }));
}

const SQLITE_MAGIC = 'SQLite format 3\u0000';

/**
 * Whether the first 100 bytes are a SQLite header whose page count times page size is the file's size:
 * a cheap check, at every open, that the file is a whole SQLite database and not something else.
 */
export function sqliteHeaderFits(file: string, size: number): boolean {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  try {
    if (readSync(fd, header, 0, 100, 0) < 100) return false;
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 0, 16) !== SQLITE_MAGIC) return false;
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  // The page count at offset 28 is valid when the change counter (24) equals "version valid for" (92).
  const counted = header.readUInt32BE(24) === header.readUInt32BE(92);
  return counted && header.readUInt32BE(28) * pageSize === size;
}
