import { BigIntStats, statSync } from 'node:fs';
import * as path from 'node:path';
import { identityOf } from './file-identity';
import { sourceFiles, sourceHashOf } from './index-key';

/** A network folder's content hash and the identity of every file it was computed from. */
export interface SourceManifest {
  /** sha256 over the folder's files (see `sourceHash`). */
  hash: string;
  /**
   * Relative path and identity of each file, in hashing order; absent when a file had changed too
   * recently for its identity to be trusted (a write in the same clock tick would not change it).
   */
  files?: [string, string][];
}

/** A file changed less than this before it was looked at may change again without its times moving. */
const RACY_NS = 2_000_000_000n;

/** Hashes a folder's files, noting each file's identity first (a file changed meanwhile then no longer matches). */
export function hashSources(folder: string): SourceManifest {
  const lookedAt = BigInt(Date.now()) * 1_000_000n;
  const relatives = sourceFiles(folder);
  const stats = relatives.map((relative) => statSync(path.join(folder, relative), { bigint: true }));
  const hash = sourceHashOf(folder, relatives);
  const racy = stats.some((stat) => recent(stat, lookedAt));
  return racy ? { hash } : { hash, files: relatives.map((relative, i) => [relative, identityOf(stats[i])]) };
}

/** Whether the folder holds exactly the files of `manifest`, each with the identity recorded: same content. */
export function unchangedSources(folder: string, manifest: SourceManifest): boolean {
  const files = manifest.files;
  if (!files) return false;
  const relatives = sourceFiles(folder);
  if (relatives.length !== files.length) return false;
  return relatives.every((relative, i) => {
    if (files[i][0] !== relative) return false;
    try {
      return identityOf(statSync(path.join(folder, relative), { bigint: true })) === files[i][1];
    } catch {
      return false;
    }
  });
}

function recent(stat: BigIntStats, lookedAt: bigint): boolean {
  return stat.mtimeNs > lookedAt - RACY_NS || stat.ctimeNs > lookedAt - RACY_NS;
}
