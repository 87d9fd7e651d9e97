import { open, stat, unlink } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface FileLockOptions {
  /** Longest wait for the lock before giving up. */
  timeoutMs: number;
  /** A lock file older than this was left by a process that died holding it; it is removed. */
  staleMs: number;
}

const DEFAULTS: FileLockOptions = { timeoutMs: 5000, staleMs: 10_000 };

/** The lock could not be had in time: another process holds it (or a stale one could not be removed). */
export class FileLockTimeout extends Error {
  constructor(lockPath: string) {
    super(`timed out waiting for the lock ${lockPath}`);
    this.name = 'FileLockTimeout';
  }
}

/**
 * Runs `work` while holding `lockPath`, a file created with O_EXCL so only one process (the service or
 * the CLI) can hold it; others retry with a short random pause. Holds last milliseconds, so a lock file
 * far older than that belongs to a process that died, and is taken over.
 */
export async function withFileLock<T>(
  lockPath: string,
  work: () => Promise<T>,
  options: Partial<FileLockOptions> = {},
): Promise<T> {
  const { timeoutMs, staleMs } = { ...DEFAULTS, ...options };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const handle = await open(lockPath, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw error;
    });
    if (handle) {
      try {
        await handle.writeFile(`${process.pid} ${new Date().toISOString()}\n`).finally(() => handle.close());
        return await work();
      } finally {
        await unlink(lockPath).catch(() => undefined);
      }
    }
    if (await isStale(lockPath, staleMs)) {
      await unlink(lockPath).catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) throw new FileLockTimeout(lockPath);
    await sleep(5 + Math.random() * 20);
  }
}

async function isStale(lockPath: string, staleMs: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lockPath)).mtimeMs > staleMs;
  } catch {
    return false;
  }
}
