import * as path from 'node:path';
import { threadId } from 'node:worker_threads';
import { projectRoot } from '../../project-root';
import { AppException } from '../errors/app.exception';
import { WorkerPool } from './worker-pool';
import { methodProxy, workerService } from './worker-service';

/** The shape of test/fixtures/workers/typed-service.js, as a feature declares its own worker service. */
interface TypedService {
  configure(prefix: string): void;
  greet(name: string): string;
  double(values: Float64Array): { kind: string; doubled: Float64Array };
  remember(value: string): void;
  rememberLater(value: string): Promise<void>;
  recall(): { threadId: number; seen: string[] };
  later(value: number): Promise<number>;
  fail(message: string): never;
  refuse(): never;
}

const FIXTURES = path.join(projectRoot(), 'test', 'fixtures', 'workers');
const TYPED = workerService<TypedService>('typed', FIXTURES, 'typed-service');

describe('typed worker services', () => {
  let pool: WorkerPool;

  beforeEach(() => {
    pool = new WorkerPool({ size: 2, queueMax: 100, maxWaitMs: 60000 });
  });

  afterEach(() => pool.close());

  it('calls a method by name on a worker thread and resolves with its result', async () => {
    const typed = pool.service(TYPED);
    await expect(typed.call.greet('ada')).resolves.toBe('ada');
    const recalled = await typed.call.recall();
    expect(recalled.threadId).not.toBe(threadId);
  });

  it('awaits a method that returns a promise', async () => {
    await expect(pool.service(TYPED).setup.later(42)).resolves.toBe(42);
  });

  it('carries typed arrays across both ways as typed arrays', async () => {
    const answer = await pool.service(TYPED).call.double(new Float64Array([1.5, -2, 3]));
    expect(answer.kind).toBe('Float64Array');
    // Jest's sandbox has its own Float64Array global: compare by name, not by instanceof.
    expect(answer.doubled.constructor.name).toBe('Float64Array');
    expect([...answer.doubled]).toEqual([3, -4, 6]);
  });

  it('rejects with the error a method threw, rebuilt as an AppException with its status and headers', async () => {
    const typed = pool.service(TYPED);
    await expect(typed.call.fail('no such thing')).rejects.toThrow('no such thing');
    const refused = await typed.call.refuse().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).status).toBe(503);
    expect((refused as AppException).headers['Retry-After']).toBe('7');
  });

  it('runs a call on every worker, and start-up calls before any other work', async () => {
    const typed = pool.service(TYPED);
    typed.onStart().configure('dr. ');
    typed.onStart('who').remember('first');
    typed.onStart('who').remember('second');
    await typed.everyWorker.remember('everyone');
    const answers = await Promise.all([1, 2, 3, 4].map(() => typed.call.recall()));
    for (const answer of answers) expect(answer.seen).toEqual(['second', 'everyone']);
    await expect(typed.call.greet('ada')).resolves.toBe('dr. ada');
  });

  it('runs the tasks posted to one worker one at a time and in order, across an async method', async () => {
    const single = new WorkerPool({ size: 1, queueMax: 100, maxWaitMs: 60000 });
    try {
      const typed = single.service(TYPED);
      await Promise.all([typed.call.rememberLater('a'), typed.call.remember('b'), typed.call.rememberLater('c')]);
      await expect(typed.call.recall()).resolves.toMatchObject({ seen: ['a', 'b', 'c'] });
    } finally {
      await single.close();
    }
  });

  it('answers the same service for the same definition, and refuses a name taken by another module', () => {
    pool.service(TYPED);
    expect(() => pool.service(TYPED)).not.toThrow();
    expect(() => pool.service(workerService<TypedService>('typed', FIXTURES, 'sleepy-service'))).toThrow(
      'already registered',
    );
  });

  it('reports a method the service does not have as an error', async () => {
    const typed = pool.service(TYPED);
    // @ts-expect-error: the compiler refuses a method TypedService lacks (lint's tsc checks this spec).
    await expect(typed.call.missing()).rejects.toThrow('worker service "typed" has no "missing"');
    // @ts-expect-error: and arguments of the wrong type.
    await expect(typed.call.greet(42)).resolves.toBe('42');
  });
});

describe('methodProxy', () => {
  it('passes the property name and arguments to invoke', () => {
    const calls: [string, unknown[]][] = [];
    const proxy = methodProxy<{ add(a: number, b: number): void }>((method, args) => calls.push([method, args]));
    proxy.add(1, 2);
    expect(calls).toEqual([['add', [1, 2]]]);
  });

  it('is not taken for a promise when awaited', async () => {
    const proxy = methodProxy<object>(() => {
      throw new Error('invoked');
    });
    await expect(Promise.resolve(proxy)).resolves.toBe(proxy);
  });
});
