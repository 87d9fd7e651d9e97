import { Global, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { configToken, WorkersConfig } from '../../config';
import { MetricsService } from '../../metrics/metrics.service';
import { WorkerPool, WorkerPoolObserver } from './worker-pool';

/** The pool's queue depth, refusals and task times as Prometheus metrics. */
export function workerPoolMetrics(metrics: MetricsService): WorkerPoolObserver {
  const depth = metrics.gauge('search_queue_depth', 'Search tasks waiting for a worker thread');
  const rejected = metrics.counter('search_rejected_total', 'Search tasks refused with 503 by reason', ['reason']);
  const tasks = metrics.counter('search_tasks_total', 'Search tasks run, by worker thread id', ['thread']);
  const duration = metrics.histogram(
    'search_task_duration_seconds',
    'Time a worker thread spent on one search task, by method and outcome',
    ['method', 'outcome'],
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  );
  return {
    queued: (value) => depth.set(value),
    rejected: (reason) => rejected.inc({ reason }),
    finished: (service, method, seconds, threadId, ok) => {
      tasks.inc({ thread: String(threadId) });
      duration.observe({ method: `${service}.${method}`, outcome: ok ? 'ok' : 'error' }, seconds);
    },
  };
}

/** Stops the worker threads after the HTTP server has drained. */
@Injectable()
class WorkerPoolShutdown implements OnApplicationShutdown {
  constructor(@Inject(WorkerPool) private readonly pool: WorkerPool) {}

  onApplicationShutdown(): Promise<void> {
    return this.pool.close();
  }
}

/** The one search worker pool of the process, shared by every feature with CPU-heavy store work. */
@Global()
@Module({
  providers: [
    {
      provide: WorkerPool,
      useFactory: (config: WorkersConfig, metrics: MetricsService) =>
        new WorkerPool(config, workerPoolMetrics(metrics)),
      inject: [configToken('workers'), MetricsService],
    },
    WorkerPoolShutdown,
  ],
  exports: [WorkerPool],
})
export class WorkersModule {}
