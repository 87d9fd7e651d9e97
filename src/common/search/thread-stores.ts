import { MethodName } from '../workers/worker-service';

/** What the request thread learns about a store one thread has prepared. */
export interface BuiltStore<Snapshot> {
  /** The id the store is served under (a network's id, the documents folder's). */
  id: string;
  /** Present when asked for: the store other threads open with `open`. */
  snapshot?: Snapshot;
}

/** A store one thread has prepared: what to report, and exactly one of a snapshot for others or a store of its own. */
export interface PreparedStore<Built, Snapshot, Store> {
  built: Built;
  /** The store for other threads; releases what this thread held. */
  snapshot(): Snapshot;
  /** The store served on this thread. */
  store(): Store;
}

/** A served store and the queries running on it: a replaced store is closed once the last one finishes. */
interface ServedStore<Store> {
  store: Store;
  running: number;
  retired: boolean;
}

type Queries<Q> = { [K in MethodName<Q>]: (...args: unknown[]) => unknown };

/**
 * The stores of one kind (knowledge networks, knowledge bases) one thread serves, by id. On a worker
 * thread the pool prepares each store on one worker (opens its index file, or builds it), which hands
 * back a snapshot every worker `open`s; with SEARCH_WORKERS=0 the request thread prepares and serves
 * them itself. Every query goes through `call`, limited to the query methods `Q`; a store opened again
 * (a reload) replaces the old one without failing the queries still running on it.
 */
export abstract class ThreadStores<
  Q extends object,
  Options,
  Built extends BuiltStore<Snapshot>,
  Snapshot,
  Store extends Q & Closeable = Q & Closeable,
> {
  private readonly stores = new Map<string, ServedStore<Store>>();
  /** Prepared on this thread, not yet served (the request thread still checks the id is unique). */
  private readonly pending = new Map<string, Store>();
  private readonly queries: ReadonlySet<string>;

  constructor(queries: readonly MethodName<Q>[]) {
    this.queries = new Set(queries);
  }

  abstract configure(options: Options): void;

  /** Finds or builds the store of one folder under `root`. */
  protected abstract prepare(root: string, folder: string): Promise<PreparedStore<Built, Snapshot, Store>>;

  /** A store from another thread's snapshot, and the id it serves. */
  protected abstract openSnapshot(snapshot: Snapshot): { id: string; store: Store };

  /** Prepares one folder's store; keeps it pending here, or returns its snapshot instead. */
  async build(root: string, folder: string, snapshot: boolean): Promise<Built> {
    const prepared = await this.prepare(root, folder);
    const built = prepared.built;
    if (snapshot) {
      built.snapshot = prepared.snapshot();
    } else {
      this.discard(built.id);
      this.pending.set(built.id, prepared.store());
    }
    return built;
  }

  /** Serves a store this thread built and kept pending. */
  serve(id: string): void {
    const store = this.pending.get(id);
    if (!store) throw new Error(`"${id}" was not built on this thread`);
    this.pending.delete(id);
    this.replace(id, store);
  }

  discard(id: string): void {
    this.pending.get(id)?.close();
    this.pending.delete(id);
  }

  /** Serves a store from another thread's snapshot. */
  open(snapshot: Snapshot): void {
    const { id, store } = this.openSnapshot(snapshot);
    this.replace(id, store);
  }

  /** Builds and serves a folder in one step: how a replacement worker catches up. */
  async rebuild(root: string, folder: string): Promise<void> {
    const built = await this.build(root, folder, false);
    this.serve(built.id);
  }

  /** Stops serving a store (its folder is gone); queries running on it finish first. */
  unserve(id: string): void {
    const served = this.stores.get(id);
    this.stores.delete(id);
    if (served) this.retire(served);
  }

  /** Runs a query on a served store; the caller has checked that `id` is one. */
  async call<M extends MethodName<Q>>(id: string, method: M, args: QueryArgs<Q, M>): Promise<QueryResult<Q, M>> {
    const served = this.stores.get(id);
    if (!served || !this.queries.has(method)) throw new Error(`no store "${id}" or query "${method}" here`);
    const store = served.store as unknown as Queries<Q>;
    served.running += 1;
    try {
      return (await store[method](...(args as unknown[]))) as QueryResult<Q, M>;
    } finally {
      served.running -= 1;
      if (served.retired && served.running === 0) served.store.close();
      this.afterQuery();
    }
  }

  /** Called after every query, whatever its outcome: a subclass's upkeep of the stores it serves. */
  protected afterQuery(): void {}

  /** The stores this thread serves now. */
  protected served(): IterableIterator<Store> {
    return [...this.stores.values()].map((served) => served.store).values();
  }

  /** `call` with the result as JSON text: a string crosses to the request thread far cheaper than an object graph. */
  async callJson<M extends MethodName<Q>>(id: string, method: M, args: QueryArgs<Q, M>): Promise<string> {
    return JSON.stringify(await this.call(id, method, args));
  }

  close(): void {
    for (const served of this.stores.values()) served.store.close();
    for (const id of [...this.pending.keys()]) this.discard(id);
    this.stores.clear();
  }

  private replace(id: string, store: Store): void {
    const old = this.stores.get(id);
    this.stores.set(id, { store, running: 0, retired: false });
    if (old) this.retire(old);
  }

  private retire(served: ServedStore<Store>): void {
    served.retired = true;
    if (served.running === 0) served.store.close();
  }
}

export interface Closeable {
  close(): void;
}

export type QueryArgs<Q, M extends MethodName<Q>> = Q[M] extends (...args: infer A) => unknown ? A : never;
export type QueryResult<Q, M extends MethodName<Q>> = Q[M] extends (...args: never[]) => infer R ? Awaited<R> : never;
