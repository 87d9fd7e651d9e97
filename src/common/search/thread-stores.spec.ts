import { PreparedStore, ThreadStores } from './thread-stores';

/** A store that answers its name and counts how often it was closed. */
class NamedStore {
  closed = 0;
  constructor(readonly name: string) {}

  answer(): string {
    return this.name;
  }

  async slowAnswer(release: Promise<void>): Promise<string> {
    await release;
    return this.name;
  }

  close(): void {
    this.closed += 1;
  }

  secret(): string {
    return 'not a query';
  }
}

type Queries = Pick<NamedStore, 'answer' | 'slowAnswer'>;

class NamedStores extends ThreadStores<Queries, string, { id: string; snapshot?: string }, string> {
  readonly made: NamedStore[] = [];
  prefix = '';

  constructor() {
    super(['answer', 'slowAnswer']);
  }

  configure(prefix: string): void {
    this.prefix = prefix;
  }

  protected prepare(_root: string, folder: string): Promise<PreparedStore<{ id: string }, string, NamedStore>> {
    return Promise.resolve({
      built: { id: folder },
      snapshot: () => `${this.prefix}${folder}`,
      store: () => this.make(`${this.prefix}${folder}`),
    });
  }

  protected openSnapshot(snapshot: string): { id: string; store: NamedStore } {
    return { id: snapshot.slice(this.prefix.length), store: this.make(snapshot) };
  }

  private make(name: string): NamedStore {
    const store = new NamedStore(name);
    this.made.push(store);
    return store;
  }
}

describe('ThreadStores', () => {
  let stores: NamedStores;

  beforeEach(() => {
    stores = new NamedStores();
    stores.configure('v1:');
  });

  it('serves a store built here only once it is served, and one opened from a snapshot at once', async () => {
    const built = await stores.build('/root', 'a', false);
    expect(built).toEqual({ id: 'a' });
    await expect(stores.call('a', 'answer', [])).rejects.toThrow('no store "a"');
    stores.serve('a');
    await expect(stores.call('a', 'answer', [])).resolves.toBe('v1:a');

    const other = await stores.build('/root', 'b', true);
    expect(other.snapshot).toBe('v1:b');
    stores.open(other.snapshot!);
    await expect(stores.callJson('b', 'answer', [])).resolves.toBe('"v1:b"');
  });

  it('runs only the query methods it was given', async () => {
    await stores.rebuild('/root', 'a');
    const call = stores.call.bind(stores) as (id: string, method: string, args: unknown[]) => Promise<unknown>;
    await expect(call('a', 'secret', [])).rejects.toThrow('query "secret"');
    await expect(call('a', 'close', [])).rejects.toThrow('query "close"');
  });

  it('closes a replaced store once the query running on it has finished', async () => {
    await stores.rebuild('/root', 'a');
    let release!: () => void;
    const running = stores.call('a', 'slowAnswer', [new Promise<void>((resolve) => (release = resolve))]);
    stores.configure('v2:');
    await stores.rebuild('/root', 'a');
    const [old, replacement] = stores.made;
    expect(old.closed).toBe(0);
    await expect(stores.call('a', 'answer', [])).resolves.toBe('v2:a');
    release();
    await expect(running).resolves.toBe('v1:a');
    expect(old.closed).toBe(1);
    expect(replacement.closed).toBe(0);
  });

  it('stops serving an unserved store and closes it', async () => {
    await stores.rebuild('/root', 'a');
    stores.unserve('a');
    await expect(stores.call('a', 'answer', [])).rejects.toThrow('no store "a"');
    expect(stores.made[0].closed).toBe(1);
  });

  it('closes what it serves and what is pending', async () => {
    await stores.rebuild('/root', 'a');
    await stores.build('/root', 'b', false);
    stores.close();
    expect(stores.made.map((store) => store.closed)).toEqual([1, 1]);
  });
});
