import { availableParallelism } from 'node:os';
import { EnvInt, Describe } from './env.decorators';
import { defineNamespace } from './config.loader';

/**
 * The search worker pool: CPU-heavy store work (full-text and vector search, condition queries,
 * subgraph walks, index builds) runs on these threads, behind a bounded queue.
 */
class WorkersEnv {
  /** Worker threads; empty = the machine's available cores; 0 = run on the request thread (no pool). */
  @Describe(
    'Worker threads that build the embedded indexes and run every query on them; `0` runs them on the request thread (one core, no pool)',
    { whenUnset: 'the number of available cores' },
  )
  @EnvInt(0, 256, { optional: true })
  SEARCH_WORKERS?: number;
  @Describe(
    'search tasks that may wait for a free worker; a request arriving when the queue is full gets `503` + `Retry-After` at once',
  )
  @EnvInt(1, 1000000)
  SEARCH_QUEUE_MAX = 1000;
  @Describe(
    'a request whose expected wait (queued tasks × mean task time ÷ workers) exceeds this is refused the same way',
  )
  @EnvInt(1, 600000)
  SEARCH_MAX_WAIT_MS = 1000;
}

export const workersNamespace = defineNamespace('workers', WorkersEnv, (env) => ({
  size: env.SEARCH_WORKERS ?? availableParallelism(),
  queueMax: env.SEARCH_QUEUE_MAX,
  maxWaitMs: env.SEARCH_MAX_WAIT_MS,
}));
export type WorkersConfig = ReturnType<typeof workersNamespace.map>;
