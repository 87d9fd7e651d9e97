import { Injectable, Logger } from '@nestjs/common';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { projectRoot } from '../project-root';

/** A built file of the console, held in memory: it is small and every answer is the same bytes. */
export interface ConsoleAsset {
  body: Buffer;
  type: string;
  /** Vite names assets by content hash: a cached copy can never be stale. */
  immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
};

// Only names Vite writes: a request can never name a path outside the folder.
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * The web console's build output (`dist/web-console`, written by `npm run build`), read once on first use.
 * Absent when the console was not built: the console routes then answer 404 and say how to build it.
 */
@Injectable()
export class ConsoleAssets {
  private readonly logger = new Logger('Console');
  private files?: Map<string, ConsoleAsset>;

  private readonly folder = path.join(projectRoot(), 'dist', 'web-console');

  index(): ConsoleAsset | undefined {
    return this.load().get('index.html');
  }

  asset(name: string): ConsoleAsset | undefined {
    return ASSET_NAME.test(name) ? this.load().get(`assets/${name}`) : undefined;
  }

  private load(): Map<string, ConsoleAsset> {
    if (this.files) return this.files;
    const files = new Map<string, ConsoleAsset>();
    const index = path.join(this.folder, 'index.html');
    if (!existsSync(index)) {
      this.logger.warn(`the console is not built (${index} is missing): run \`npm run build\``);
      return files;
    }
    files.set('index.html', { body: readFileSync(index), type: TYPES['.html'], immutable: false });
    const assets = path.join(this.folder, 'assets');
    for (const name of existsSync(assets) ? readdirSync(assets) : []) {
      const type = TYPES[path.extname(name)];
      if (!type || !ASSET_NAME.test(name)) continue;
      files.set(`assets/${name}`, { body: readFileSync(path.join(assets, name)), type, immutable: true });
    }
    this.files = files;
    return files;
  }
}
