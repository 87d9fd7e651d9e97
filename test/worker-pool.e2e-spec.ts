import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { AppException } from '../src/common/errors/app.exception';
import { WorkerPool } from '../src/common/workers/worker-pool';
import { RemoteService, workerService } from '../src/common/workers/worker-service';
import { NETWORK_STORES } from '../src/knowledge-network/embedded/network-stores';
import { startTestApp, TestApp } from './support/app';
import { until } from './support/until';

const FIXTURES = path.join(__dirname, 'fixtures', 'workers');
const KN_SEARCH = '/api/agent-retrieval/in/v1/kn/kn_search';
const ACCOUNT = { 'x-account-id': 'u1', 'x-account-type': 'user' };

/** test/fixtures/workers/sleepy-service.js */
interface SleepyService {
  hold(ms: number): number;
  echo<T>(value: T): T;
  warn(context: string, message: string): number;
  crash(): never;
}

const SLEEPY = workerService<SleepyService>('sleepy', FIXTURES, 'sleepy-service');

function sleepyPool(
  size: number,
  queueMax: number,
  maxWaitMs = 60000,
): { pool: WorkerPool; sleepy: RemoteService<SleepyService>['call'] } {
  const pool = new WorkerPool({ size, queueMax, maxWaitMs });
  return { pool, sleepy: pool.service(SLEEPY).call };
}

/** Search tasks counted per worker thread id, from the Prometheus text. */
function tasksByThread(metrics: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of metrics.matchAll(/^agent_retrieval_search_tasks_total\{thread="(\d+)"\} (\d+)/gm)) {
    counts.set(match[1], Number(match[2]));
  }
  return counts;
}

describe('search worker pool', () => {
  it('runs tasks on worker threads, not the calling thread', async () => {
    const { pool, sleepy } = sleepyPool(2, 10);
    try {
      const threads = await Promise.all([1, 2, 3, 4].map(() => sleepy.hold(20)));
      expect(threads.every((id) => id !== threadId)).toBe(true);
      expect(new Set(threads).size).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it("logs a worker's line on this thread under the worker logger's own context", async () => {
    const warn = jest.spyOn(Logger, 'warn').mockImplementation(() => undefined);
    const { pool, sleepy } = sleepyPool(1, 10);
    try {
      await sleepy.warn('IndexDirectory', 'index file x is not served');
      await until('the forwarded line', () => warn.mock.calls.length > 0);
      expect(warn.mock.calls).toEqual([['index file x is not served', 'IndexDirectory']]);
    } finally {
      warn.mockRestore();
      await pool.close();
    }
  });

  it('counts the workers that run and hold nothing, and none while a task waits', async () => {
    const { pool, sleepy } = sleepyPool(2, 10);
    try {
      expect(pool.idle).toBe(0); // no worker has started yet
      await sleepy.echo('start');
      expect(pool.idle).toBe(2);
      const first = sleepy.hold(200);
      expect(pool.idle).toBe(1);
      const second = sleepy.hold(200);
      expect(pool.idle).toBe(0);
      const third = sleepy.echo('waits');
      expect(pool.idle).toBe(0);
      await Promise.all([first, second, third]);
      expect(pool.idle).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('refuses at once with 503 and Retry-After when the queue is full', async () => {
    const { pool, sleepy } = sleepyPool(1, 1);
    try {
      const running = sleepy.hold(300);
      let runningDone = false;
      void running.then(
        () => (runningDone = true),
        () => undefined,
      );
      const queued = sleepy.echo('queued');
      const refused = await sleepy.echo('refused').catch((error: unknown) => error);
      // At once: the refusal does not wait for a place in the queue, so it comes while the task holds it.
      expect(runningDone).toBe(false);
      expect(refused).toBeInstanceOf(AppException);
      const error = refused as AppException;
      expect(error.status).toBe(503);
      expect(error.definition.code).toBe('agentRetrieval.ServiceUnavailable.SearchOverloaded');
      expect(Number(error.headers['Retry-After'])).toBeGreaterThanOrEqual(1);
      await expect(queued).resolves.toBe('queued');
      await running;
      await expect(sleepy.echo('later')).resolves.toBe('later');
    } finally {
      await pool.close();
    }
  });

  it('refuses a task whose expected wait exceeds the limit', async () => {
    const { pool, sleepy } = sleepyPool(1, 1000, 50);
    try {
      // Teach the pool that tasks are slow: the mean starts at 10 ms and moves a fifth of the way to each
      // task's time, so one task of at least 300 ms leaves it above 68 ms however fast the worker booted.
      // Then a task waiting behind the running one expects more than the 50 ms limit.
      await sleepy.hold(300);
      const running = sleepy.hold(300);
      await expect(sleepy.echo(1)).rejects.toMatchObject({ status: 503 });
      await running;
    } finally {
      await pool.close();
    }
  });

  it('replaces a worker that dies: its tasks fail with 503, the next one runs', async () => {
    const { pool, sleepy } = sleepyPool(1, 10);
    try {
      // A task posted to it behind the one running (see POSTED_PER_WORKER) is lost with it.
      const [crashed, behind] = await Promise.allSettled([sleepy.crash(), sleepy.echo('behind')]);
      expect(crashed).toMatchObject({ status: 'rejected', reason: { status: 503 } });
      expect(behind).toMatchObject({ status: 'rejected', reason: { status: 503 } });
      await expect(sleepy.echo('again')).resolves.toBe('again');
    } finally {
      await pool.close();
    }
  });

  it('reports a method the service does not have as an error', async () => {
    const { pool, sleepy } = sleepyPool(1, 10);
    try {
      // @ts-expect-error: a method SleepyService lacks does not compile.
      await expect(sleepy.missing()).rejects.toThrow('worker service "sleepy" has no "missing"');
      // Every object type has a `constructor`; the worker refuses to call it.
      await expect(sleepy.constructor()).rejects.toThrow('has no "constructor"');
    } finally {
      await pool.close();
    }
  });
});

describe('kn_search on the worker pool (e2e)', () => {
  let app: TestApp;

  afterEach(async () => app?.close());

  it('runs the search on a worker thread, as the per-thread task metric shows', async () => {
    app = await startTestApp({ AUTH_MODE: 'none', SEARCH_WORKERS: '2' });
    const response = await request(app.url).post(KN_SEARCH).set(ACCOUNT).send({ kn_id: 'clinic', query: '糖尿病' });
    expect(response.status).toBe(200);
    const metrics = await request(app.url).get('/metrics');
    const threads = tasksByThread(metrics.text);
    expect(threads.size).toBeGreaterThan(0);
    expect([...threads.keys()]).not.toContain(String(threadId));
  });

  it('spreads a lone kn_search over idle workers, with the answers one worker gives', async () => {
    const queries = ['糖尿病', '高血压 用药', 'metformin', '患者 复诊'];
    const answers = async (workers: string): Promise<{ bodies: unknown[]; threads: Map<string, number> }> => {
      app = await startTestApp({ AUTH_MODE: 'none', SEARCH_WORKERS: workers });
      const bodies: unknown[] = [];
      for (const query of queries) {
        const response = await request(app.url).post(KN_SEARCH).set(ACCOUNT).send({ kn_id: 'clinic', query });
        expect(response.status).toBe(200);
        bodies.push(response.body);
      }
      const threads = tasksByThread((await request(app.url).get('/metrics')).text);
      await app.close();
      return { bodies, threads };
    };
    const one = await answers('1');
    const two = await answers('2');
    expect(two.bodies).toEqual(one.bodies);
    // One request at a time, yet both workers ran queries: the instance batches were split.
    expect(two.threads.size).toBe(2);
    expect(Math.min(...two.threads.values())).toBeGreaterThan(queries.length);
  });

  it('answers 503 with Retry-After in the standard error body when the search queue is full', async () => {
    app = await startTestApp({ AUTH_MODE: 'none', SEARCH_WORKERS: '1', SEARCH_QUEUE_MAX: '1' });
    const pool = app.app.get(WorkerPool);
    // Keep the only worker busy and the queue full: rebuilding a network is real, slow-enough work.
    const root = path.join(__dirname, '..', 'examples', 'networks');
    const networks = pool.service(NETWORK_STORES);
    const busy = [1, 2, 3, 4].map(() => networks.setup.rebuild(root, path.join(root, 'clinic')));
    const response = await request(app.url).post(KN_SEARCH).set(ACCOUNT).send({ kn_id: 'clinic', query: '糖尿病' });
    await Promise.all(busy);
    expect(response.status).toBe(503);
    expect(Number(response.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(response.body).toMatchObject({
      code: 'agentRetrieval.ServiceUnavailable.SearchOverloaded',
      description: expect.any(String),
      solution: expect.any(String),
    });
    const metrics = await request(app.url).get('/metrics');
    expect(metrics.text).toMatch(/^agent_retrieval_search_rejected_total\{reason="queue_full"\} [1-9]/m);
    // Once the queue drains the same search is served.
    const again = await request(app.url).post(KN_SEARCH).set(ACCOUNT).send({ kn_id: 'clinic', query: '糖尿病' });
    expect(again.status).toBe(200);
  });
});
