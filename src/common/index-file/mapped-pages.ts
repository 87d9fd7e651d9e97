import { readFileSync } from 'node:fs';

/** How often a thread looks at the process's mapped memory: reading it costs a few microseconds. */
const CHECK_MS = 100;

/** Resident bytes of memory-mapped files in this process (RssFile), or undefined where /proc has none. */
export function residentFileBytes(): number | undefined {
  try {
    const kb = /^RssFile:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'latin1'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * INDEX_MAPPED_MB: RSS counts a page of a memory-mapped index once per worker thread that touched it,
 * so after many different queries a process shows several times the index's size although the pages
 * are one shared copy in the page cache. Past the limit, each thread unmaps its index files (see
 * NetworkIndex.releaseMappedPages) after the query it is running: RSS falls back, nothing is re-read
 * from disk.
 */
export class MappedPageBudget {
  private checkedAt = Number.NEGATIVE_INFINITY;
  private unsupported = false;

  constructor(
    private readonly limitBytes: number,
    private readonly measure: () => number | undefined = residentFileBytes,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this thread should release its mapped pages now; looks at most every CHECK_MS. */
  exceeded(): boolean {
    if (this.limitBytes <= 0 || this.unsupported) return false;
    const now = this.now();
    if (now - this.checkedAt < CHECK_MS) return false;
    this.checkedAt = now;
    const bytes = this.measure();
    if (bytes === undefined) this.unsupported = true;
    return bytes !== undefined && bytes > this.limitBytes;
  }
}
