import { FSWatcher, watch } from 'node:fs';
import { Logger } from '@nestjs/common';

/** Quiet time after the last change before a folder is re-indexed: an editor's save or a `cp -r` is many events. */
const DEBOUNCE_MS = 500;

/**
 * Watches folders and reports each changed one once its changes settle: a network folder recursively,
 * KN_DIR itself only for folders added or removed. Hidden files (editor swap files, the index
 * builder's temporaries) are ignored.
 */
export class NetworkWatcher {
  private readonly logger = new Logger('NetworkWatcher');
  private readonly watchers = new Map<string, FSWatcher>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly changed: (folder: string) => void) {}

  /** The folders watched now. */
  get folders(): string[] {
    return [...this.watchers.keys()];
  }

  watch(folder: string, recursive = true): void {
    if (this.watchers.has(folder)) return;
    try {
      const watcher = watch(folder, { recursive }, (_event, name) => {
        if (
          name &&
          String(name)
            .split(/[\\/]/)
            .some((part) => part.startsWith('.'))
        )
          return;
        this.schedule(folder);
      });
      watcher.on('error', (error) => this.logger.warn(`stopped watching ${folder}: ${error.message}`));
      this.watchers.set(folder, watcher);
    } catch (error) {
      this.logger.warn(`cannot watch ${folder}: ${(error as Error).message}; use the reload route instead`);
    }
  }

  unwatch(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
    clearTimeout(this.timers.get(folder));
    this.timers.delete(folder);
  }

  close(): void {
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(folder: string): void {
    clearTimeout(this.timers.get(folder));
    const timer = setTimeout(() => {
      this.timers.delete(folder);
      this.changed(folder);
    }, DEBOUNCE_MS);
    timer.unref();
    this.timers.set(folder, timer);
  }
}
