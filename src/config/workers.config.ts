import { availableParallelism } from 'node:os';
import { EnvInt } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * The search worker pool: CPU-heavy store work (full-text and vector search, condition queries,
 * subgraph walks, index builds) runs on these threads, behind a bounded queue.
 */
class WorkersEnv {
  /** Worker threads; empty = the machine's available cores; 0 = run on the request thread (no pool). */
  @EnvInt(0, 256, { optional: true }) SEARCH_WORKERS?: number;
  @EnvInt(1, 1000000) SEARCH_QUEUE_MAX = 1000;
  @EnvInt(1, 600000) SEARCH_MAX_WAIT_MS = 1000;
}

export const workersNamespace = defineNamespace('workers', WorkersEnv, (env) => ({
  size: env.SEARCH_WORKERS ?? availableParallelism(),
  queueMax: env.SEARCH_QUEUE_MAX,
  maxWaitMs: env.SEARCH_MAX_WAIT_MS,
}));
export type WorkersConfig = ReturnType<typeof workersNamespace.map>;
