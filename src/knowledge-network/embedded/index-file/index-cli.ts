import 'reflect-metadata';
import { existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ConfigError, loadConfig } from '../../../config';
import { resolveFromRoot } from '../../../project-root';
import { KbStores } from '../../../kbsearch/embedded/kb-stores';
import { EmbeddingClient } from '../../../common/search/embedding-client';
import { NetworkLoader } from '../network-loader';
import { IndexBuilder } from './index-builder';
import { IndexDirectory } from '../../../common/index-file/index-directory';

export const EXIT_OK = 0;
/** A network folder failed to index (the message names file:line). */
export const EXIT_BAD_INPUT = 1;
/** Bad usage, bad configuration, or an INDEX_DIR that cannot be written. */
export const EXIT_USAGE = 2;

export const USAGE = `usage: npm run index -- [KN_DIR or network folder] [--index-dir DIR] [--docs DOCS_DIR]

Builds the index file of every network folder (a folder holding network.bkn) into INDEX_DIR
(default data/indexes), so a service start opens it instead of indexing. Without a folder, KN_DIR
(default examples/networks) is indexed. A folder whose index is
already there and intact is skipped. The documents folder of knowledge-base search is indexed too:
--docs names it; without a folder argument DOCS_DIR (default examples/docs) is, when KB_BACKEND is
embedded. EMBEDDING_URL / EMBEDDING_MODEL are read from the environment
as the service reads them: an index holds the vectors of one model.
`;

export interface IndexCliIo {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface IndexCliArgs {
  target?: string;
  indexDir?: string;
  docs?: string;
}

function parseArgs(argv: string[]): IndexCliArgs | string {
  const args: Partial<IndexCliArgs> = {};
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--index-dir' && argv[i + 1]) args.indexDir = argv[++i];
    else if (arg === '--docs' && argv[i + 1]) args.docs = argv[++i];
    else if (!arg.startsWith('-') && args.target === undefined) args.target = arg;
    else return `unexpected argument ${arg}`;
  }
  return args;
}

/** The network folders to index and the root their messages are relative to. */
function foldersOf(target: string): { root: string; folders: string[] } {
  if (existsSync(path.join(target, 'network.bkn'))) return { root: path.dirname(target), folders: [target] };
  return { root: target, folders: new NetworkLoader(target).folders() };
}

/** `npm run index -- <dir>`: what a service start does to each folder, ahead of time, with progress. */
export async function runIndexCli(argv: string[], io: IndexCliIo): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.stderr(`index: ${args}\n${USAGE}`);
    return EXIT_USAGE;
  }
  let kn;
  let config;
  try {
    config = loadConfig(io.env);
    kn = config.kn;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`index: ${error.problems.join('; ')}\n`);
    return EXIT_USAGE;
  }
  const target = args.target ? path.resolve(args.target) : resolveFromRoot(kn.dir);
  if (!existsSync(target) || !statSync(target).isDirectory()) {
    io.stderr(`index: ${args.target ?? target} is not a folder\n`);
    return EXIT_USAGE;
  }
  const directory = new IndexDirectory(resolveFromRoot(args.indexDir ?? kn.indexDir), false, kn.indexVerify);
  const unusable = directory.unusableReason();
  if (unusable) {
    io.stderr(`index: cannot write ${directory.dir} (${unusable})\n`);
    return EXIT_USAGE;
  }
  const { root, folders } = foldersOf(target);
  if (folders.length === 0) {
    io.stderr(`index: no network folders under ${target}\n`);
    return EXIT_USAGE;
  }
  let failed = 0;
  for (const folder of folders) failed += (await indexFolder(root, folder, directory, kn, io)) ? 0 : 1;
  io.stdout(`${folders.length - failed} of ${folders.length} network(s) indexed in ${directory.dir}\n`);
  const docs = args.docs ?? (args.target || config.kb.backend !== 'embedded' ? undefined : config.kb.docsDir);
  if (docs !== undefined && !(await indexDocuments(resolveFromRoot(docs), directory, kn, io))) failed += 1;
  return failed > 0 ? EXIT_BAD_INPUT : EXIT_OK;
}

async function indexFolder(
  root: string,
  folder: string,
  directory: IndexDirectory,
  kn: ReturnType<typeof loadConfig>['kn'],
  io: IndexCliIo,
): Promise<boolean> {
  const name = path.basename(folder);
  const started = Date.now();
  const seconds = (): string => ((Date.now() - started) / 1000).toFixed(1);
  const builder = new IndexBuilder({
    directory,
    embeddings: kn.embedding ? new EmbeddingClient(kn.embedding) : undefined,
    embeddingName: kn.embedding ? `${kn.embedding.url} ${kn.embedding.model}` : undefined,
    queryCacheSize: 0,
    progress: (message) => io.stderr(`[${name}] ${seconds()} s ${message}\n`),
  });
  try {
    const prepared = await builder.prepare(root, folder);
    directory.removeOthers(folder, prepared.file!);
    const how = prepared.info.reused ? 'already indexed' : `indexed in ${seconds()} s`;
    const vectors = prepared.meta.embeddingError ? ` (keyword-only: ${prepared.meta.embeddingError})` : '';
    io.stdout(
      `${name}: network "${prepared.meta.schema.id}", ${prepared.meta.instanceCount} instance(s), ${how}${vectors} → ${path.basename(prepared.file!)}\n`,
    );
    for (const warning of [...prepared.meta.warnings, ...prepared.meta.missingColumns])
      io.stderr(`${name}: warning: ${warning}\n`);
    return true;
  } catch (error) {
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return false;
  }
}

/** Indexes the documents folder of knowledge-base search as a service start would; a missing folder is skipped. */
async function indexDocuments(
  docs: string,
  directory: IndexDirectory,
  kn: ReturnType<typeof loadConfig>['kn'],
  io: IndexCliIo,
): Promise<boolean> {
  if (!existsSync(docs)) {
    io.stderr(`documents: no folder at ${docs}; skipped\n`);
    return true;
  }
  const stores = new KbStores();
  stores.configure({ embedding: kn.embedding, index: { dir: directory.dir, readOnly: false } });
  try {
    const built = await stores.build(docs, docs, true);
    const how = built.index.reused ? 'already indexed' : `indexed in ${(built.buildMs / 1000).toFixed(1)} s`;
    const vectors = built.embeddingError ? ` (keyword-only: ${built.embeddingError})` : '';
    io.stdout(
      `documents: ${built.bases.length} knowledge base(s), ${built.passages} passage(s), ${how}${vectors} → ${path.basename(built.index.file!)}\n`,
    );
    for (const warning of built.warnings) io.stderr(`documents: warning: ${warning}\n`);
    return true;
  } catch (error) {
    io.stderr(`documents: ${error instanceof Error ? error.message : String(error)}\n`);
    return false;
  }
}

/** The entry bin/index.js calls. */
export function main(argv: string[]): Promise<number> {
  return runIndexCli(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
}
