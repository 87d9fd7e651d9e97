import { FSWatcher, watch } from 'node:fs';
import { Logger } from '@nestjs/common';

/** Quiet time after the last change before a folder is re-indexed: an editor's save or a `cp -r` is many events. */
const DEBOUNCE_MS = 500;

/**
 * Watches network folders (recursively) and reports each changed folder once its changes settle.
 * Hidden files (editor swap files, the index builder's temporaries) are ignored.
 */
export class NetworkWatcher {
  private readonly logger = new Logger('NetworkWatcher');
  private readonly watchers: FSWatcher[] = [];
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly changed: (folder: string) => void) {}

  watch(folder: string): void {
    try {
      const watcher = watch(folder, { recursive: true }, (_event, name) => {
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
      this.watchers.push(watcher);
    } catch (error) {
      this.logger.warn(`cannot watch ${folder}: ${(error as Error).message}; use the reload route instead`);
    }
  }

  close(): void {
    for (const watcher of this.watchers.splice(0)) watcher.close();
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
