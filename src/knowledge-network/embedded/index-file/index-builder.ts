import { EmbeddingClient } from '../../../common/search/embedding-client';
import { NetworkIndex } from '../network-index';
import { NetworkLoader } from '../network-loader';
import { decodeMeta, encodeMeta, metaOf, NetworkMeta } from '../network-snapshot';
import { IndexedNetwork } from '../network-store';
import { indexNetwork } from '../network-store-builder';
import { IndexDirectory, type IndexInfo } from '../../../common/index-file/index-directory';
import { indexKey } from '../../../common/index-file/index-key';
import { hashSources, SourceManifest } from '../../../common/index-file/source-manifest';

/** A network ready to open: an index file, or (no usable INDEX_DIR) a database built in memory. */
export interface PreparedNetwork {
  meta: NetworkMeta;
  info: IndexInfo;
  file?: string;
  network?: IndexedNetwork;
}

export interface IndexBuilderOptions {
  /** Absent: every build is in memory (INDEX_DIR unusable). */
  directory?: IndexDirectory;
  embeddings?: EmbeddingClient;
  /** The embeddings endpoint and model, part of the key: vectors from another model are another index. */
  embeddingName?: string;
  queryCacheSize: number;
  progress?: (message: string) => void;
}

/**
 * Finds or builds one network folder's index. With an INDEX_DIR: opens the file named by the folder's
 * content key when its checksum holds, otherwise (unless read-only) parses the folder and builds the
 * file atomically. Without one: builds in memory, as every start did before indexes were files.
 */
export class IndexBuilder {
  constructor(private readonly options: IndexBuilderOptions) {}

  async prepare(root: string, folder: string): Promise<PreparedNetwork> {
    const directory = this.options.directory;
    const known = directory?.knownSources(folder);
    if (!known) this.progress('hashing sources');
    const sources = known ?? hashSources(folder);
    const key = indexKey(sources.hash, { embedding: this.options.embeddingName });
    if (!directory) return this.inMemory(root, folder, key);
    const file = directory.fileFor(folder, key);
    this.progress('checking index file');
    const check = directory.check(file, key);
    const existing = check.valid ? this.readExisting(file, key) : undefined;
    if (check.valid && !existing) directory.refuse(file, 'its content is not an index of these sources');
    if (existing && !(existing.meta.embeddingError && this.options.embeddings && !directory.readOnly)) {
      if (check.valid) {
        directory.remember(file, check.identity, sources);
        existing.info.checked = check.by;
      }
      return existing;
    }
    if (directory.readOnly) {
      const reason = !check.valid
        ? check.reason
        : existing
          ? 'built while embeddings failed'
          : 'the file is not an index this service wrote for these sources';
      throw new Error(`no usable index for this folder in INDEX_DIR (${reason}); INDEX_READ_ONLY forbids building`);
    }
    return this.buildFile(root, folder, key, directory, sources);
  }

  private readExisting(file: string, key: string): PreparedNetwork | undefined {
    const index = new NetworkIndex({ file, readOnly: true });
    try {
      const rows = index.readMeta();
      const meta = decodeMeta(rows, key);
      const info = JSON.parse(rows.build_info ?? '{}') as { builtAt?: string; buildMs?: number };
      const builtAt = info.builtAt ?? new Date(0).toISOString();
      return {
        meta,
        file,
        info: { hash: key.slice(0, 32), storage: 'file', file, builtAt, buildMs: info.buildMs ?? 0, reused: true },
      };
    } catch {
      // An unreadable or foreign file with a matching sidecar (copied, or edited in place): rebuilt.
      return undefined;
    } finally {
      index.close();
    }
  }

  private async buildFile(
    root: string,
    folder: string,
    key: string,
    directory: IndexDirectory,
    sources: SourceManifest,
  ): Promise<PreparedNetwork> {
    const started = Date.now();
    const file = directory.fileFor(folder, key);
    const builtAt = new Date().toISOString();
    const meta = await directory.publish(
      folder,
      key,
      async (temporary) => {
        this.progress('parsing');
        const streamed = new NetworkLoader(root).stream(folder);
        const network = await indexNetwork(streamed.network, this.indexOptions(temporary));
        try {
          streamed.finish();
          const built = metaOf(network, streamed.network);
          const buildInfo = { builtAt, buildMs: Date.now() - started };
          network.index.writeMeta({ ...encodeMeta(built, key), build_info: JSON.stringify(buildInfo) });
          this.progress('checksumming');
          return built;
        } finally {
          network.index.close();
        }
      },
      sources,
    );
    const info: IndexInfo = {
      hash: key.slice(0, 32),
      storage: 'file',
      file,
      builtAt,
      buildMs: Date.now() - started,
      reused: false,
    };
    return { meta, file, info };
  }

  private async inMemory(root: string, folder: string, key: string): Promise<PreparedNetwork> {
    const started = Date.now();
    const loaded = this.load(root, folder);
    const network = await indexNetwork(loaded, this.indexOptions());
    const info: IndexInfo = {
      hash: key.slice(0, 32),
      storage: 'memory',
      builtAt: new Date().toISOString(),
      buildMs: Date.now() - started,
      reused: false,
    };
    return { meta: metaOf(network, loaded), info, network };
  }

  private load(root: string, folder: string): ReturnType<NetworkLoader['load']> {
    this.progress('parsing');
    return new NetworkLoader(root).load(folder);
  }

  private indexOptions(file?: string): Parameters<typeof indexNetwork>[1] {
    return {
      embeddings: this.options.embeddings,
      queryCacheSize: this.options.queryCacheSize,
      file,
      progress: this.options.progress,
    };
  }

  private progress(message: string): void {
    this.options.progress?.(message);
  }
}
