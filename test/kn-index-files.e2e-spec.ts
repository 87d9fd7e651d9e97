import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, RecordedRequest, sendJson } from './support/http-peer';
import { until } from './support/until';

const FIXTURE = path.join(__dirname, 'fixtures', 'networks', 'clinic-mini');
const KN = '/api/agent-retrieval/in/v1/kn';
const KN_ID = 'clinic_mini';
const NEW_PATIENT = 'P901,新患者,40,女,杭州,false,reloadmarker 新增的病历,2024-01-01\n';

interface IndexStatus {
  state: string;
  hash: string;
  storage: string;
  built_at: string;
  reused: boolean;
  checked?: string;
  error?: string;
}

/** A KN_DIR holding a copy of the fixture (tests edit it), and an INDEX_DIR of its own. */
function workspace(): { root: string; knDir: string; folder: string; indexDir: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'kn-index-files-'));
  const knDir = path.join(root, 'networks');
  cpSync(FIXTURE, path.join(knDir, 'clinic-mini'), { recursive: true });
  return { root, knDir, folder: path.join(knDir, 'clinic-mini'), indexDir: path.join(root, 'indexes') };
}

async function indexStatus(app: TestApp): Promise<IndexStatus> {
  const health = await request(app.url).get('/health').expect(200);
  const networks = health.body.details.knowledge_network.networks as { id: string; index: IndexStatus }[];
  return networks.find((network) => network.id === KN_ID)!.index;
}

const indexFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.sqlite'));

async function patient(app: TestApp, id: string): Promise<unknown[]> {
  const response = await request(app.url)
    .post(`${KN}/query_object_instance`)
    .set(INTERNAL_CALLER)
    .send({ kn_id: KN_ID, ot_id: 'patient', condition: { field: 'patient_id', operation: '==', value: id } })
    .expect(200);
  return response.body.datas as unknown[];
}

describe('network index files (e2e)', () => {
  let space: ReturnType<typeof workspace>;
  const start = (env: Record<string, string> = {}) =>
    // No documents folder: INDEX_DIR then holds only the networks' index files.
    startTestApp({
      KN_DIR: space.knDir,
      DOCS_DIR: path.join(space.root, 'no-docs'),
      INDEX_DIR: space.indexDir,
      AUTH_MODE: 'none',
      KN_WATCH: 'false',
      ...env,
    });

  beforeEach(() => {
    space = workspace();
  });

  afterEach(() => rmSync(space.root, { recursive: true, force: true }));

  it('builds the index file once; a restart opens it without building', async () => {
    let app = await start();
    const built = await indexStatus(app);
    await app.close();
    expect(built).toMatchObject({ state: 'ready', storage: 'file', reused: false });
    expect(indexFiles(space.indexDir)).toEqual([expect.stringContaining(built.hash)]);

    app = await start();
    try {
      const reopened = await indexStatus(app);
      expect(reopened).toMatchObject({ state: 'ready', storage: 'file', reused: true, hash: built.hash });
      expect(reopened.built_at).toBe(built.built_at);
      expect(await patient(app, 'P001')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('reads an unchanged index file again only once something touched it', async () => {
    let app = await start();
    await app.close();
    const file = path.join(space.indexDir, indexFiles(space.indexDir)[0]);
    app = await start();
    try {
      expect(await indexStatus(app)).toMatchObject({ reused: true, checked: 'identity' });
    } finally {
      await app.close();
    }
    // New times (the kernel sets the change time too): the bytes are hashed again, found intact, and
    // the new identity recorded, so the start after that trusts it again.
    const later = new Date(Date.now() + 60_000);
    utimesSync(file, later, later);
    for (const checked of ['checksum', 'identity']) {
      app = await start();
      try {
        expect(await indexStatus(app)).toMatchObject({ state: 'ready', reused: true, checked });
      } finally {
        await app.close();
      }
    }
    app = await start({ INDEX_VERIFY: 'always' });
    try {
      expect(await indexStatus(app)).toMatchObject({ reused: true, checked: 'checksum' });
    } finally {
      await app.close();
    }
  });

  it('rebuilds a corrupt index file and one copied from another network, never serving them', async () => {
    let app = await start();
    const built = await indexStatus(app);
    await app.close();
    const file = path.join(space.indexDir, indexFiles(space.indexDir)[0]);
    const bytes = readFileSync(file);
    bytes.fill(0x41, 4096, 8192);
    writeFileSync(file, bytes);

    app = await start();
    try {
      expect(await indexStatus(app)).toMatchObject({ state: 'ready', reused: false, hash: built.hash });
      expect(await patient(app, 'P001')).toHaveLength(1);
    } finally {
      await app.close();
    }

    // A foreign file under this folder's name: its checksum names other sources.
    writeFileSync(`${file}.sha256`, JSON.stringify({ format: 1, key: 'f'.repeat(64), size: 1, sha256: 'x' }));
    app = await start();
    try {
      expect(await indexStatus(app)).toMatchObject({ state: 'ready', reused: false, hash: built.hash });
    } finally {
      await app.close();
    }
  });

  it('falls back to an in-memory index when INDEX_DIR cannot be written', async () => {
    writeFileSync(path.join(space.root, 'plain-file'), '');
    const app = await start({ INDEX_DIR: path.join(space.root, 'plain-file', 'indexes') });
    try {
      const health = await request(app.url).get('/health/ready').expect(200);
      expect(health.body.details.knowledge_network.index_storage).toBe('memory');
      expect(await indexStatus(app)).toMatchObject({ state: 'ready', storage: 'memory' });
      expect(await patient(app, 'P001')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('reload swaps in the new data, keeps the old index when the folder breaks, and removes the old file', async () => {
    const app = await start();
    try {
      const before = await indexStatus(app);
      expect(await patient(app, 'P901')).toHaveLength(0);
      appendFileSync(path.join(space.folder, 'data', 'patient.csv'), NEW_PATIENT);
      const reloaded = await request(app.url).post(`${KN}/networks/${KN_ID}/reload`).set(INTERNAL_CALLER).expect(200);
      expect(reloaded.body).toMatchObject({ kn_id: KN_ID, state: 'ready', reused: false });
      expect(reloaded.body.hash).not.toBe(before.hash);
      expect(await patient(app, 'P901')).toHaveLength(1);
      expect(indexFiles(space.indexDir)).toEqual([expect.stringContaining(reloaded.body.hash)]);

      appendFileSync(
        path.join(space.folder, 'data', 'patient.csv'),
        'P902,坏行,not-a-number,女,杭州,false,x,2024-01-01\n',
      );
      const failed = await request(app.url).post(`${KN}/networks/${KN_ID}/reload`).set(INTERNAL_CALLER).expect(409);
      expect(failed.body.details).toMatch(/clinic-mini\/data\/patient\.csv:\d+: column "age"/);
      const status = await indexStatus(app);
      expect(status).toMatchObject({ state: 'failed', hash: reloaded.body.hash });
      expect(status.error).toMatch(/patient\.csv:\d+/);
      expect(await patient(app, 'P901')).toHaveLength(1);
      await request(app.url).get('/health/ready').expect(200);
      await request(app.url).post(`${KN}/networks/unknown_kn/reload`).set(INTERNAL_CALLER).expect(404);
    } finally {
      await app.close();
    }
  });

  it('re-indexes a changed folder on its own when watching', async () => {
    const app = await start({ KN_WATCH: 'true' });
    try {
      const before = await indexStatus(app);
      appendFileSync(path.join(space.folder, 'data', 'patient.csv'), NEW_PATIENT);
      // A background re-index has no event a client can wait on: poll its effect.
      await until(
        'the watcher re-indexes the folder',
        async () => (await indexStatus(app)).hash !== before.hash,
        60_000,
      );
      expect(await patient(app, 'P901')).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('loads a network folder added to KN_DIR and unloads a removed one when watching, without a restart', async () => {
    const app = await start({ KN_WATCH: 'true' });
    const served = async (): Promise<string[]> => {
      const health = await request(app.url).get('/health').expect(200);
      return (health.body.details.knowledge_network.networks as { id: string }[]).map((network) => network.id).sort();
    };
    try {
      expect(await served()).toEqual([KN_ID]);
      cpSync(path.join(__dirname, '..', 'examples', 'networks', 'k8s_ops'), path.join(space.knDir, 'k8s_ops'), {
        recursive: true,
      });
      await until('the added folder is loaded', async () => (await served()).includes('k8s_ops'), 60_000);
      expect(await served()).toEqual([KN_ID, 'k8s_ops']);
      // Its index is open on the workers: a search is answered from it.
      const search = await request(app.url)
        .post(`${KN}/kn_search`)
        .set(INTERNAL_CALLER)
        .send({ kn_id: 'k8s_ops', query: 'pod' })
        .expect(200);
      expect(JSON.stringify(search.body)).toContain('pod');

      rmSync(space.folder, { recursive: true, force: true });
      await until('the removed folder is unloaded', async () => !(await served()).includes(KN_ID), 60_000);
      expect(await served()).toEqual(['k8s_ops']);
      const gone = await request(app.url)
        .post(`${KN}/query_object_instance`)
        .set(INTERNAL_CALLER)
        .send({ kn_id: KN_ID, ot_id: 'patient', condition: { field: 'patient_id', operation: '==', value: 'P001' } });
      expect(gone.status).toBe(404);
      const health = await request(app.url).get('/health').expect(200);
      expect(health.body.details.knowledge_network.failed).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('with INDEX_READ_ONLY serves an index built before and refuses to build one', async () => {
    let app = await start({ INDEX_READ_ONLY: 'true' });
    try {
      const health = await request(app.url).get('/health').expect(503);
      const failed = health.body.details.knowledge_network.failed as { error: string }[];
      expect(failed[0].error).toMatch(/INDEX_READ_ONLY forbids building/);
    } finally {
      await app.close();
    }
    app = await start();
    await app.close();
    app = await start({ INDEX_READ_ONLY: 'true' });
    try {
      expect(await indexStatus(app)).toMatchObject({ state: 'ready', reused: true });
    } finally {
      await app.close();
    }
  });
});

describe('network reload with a request in flight (e2e)', () => {
  const space = workspace();
  const held: (() => void)[] = [];
  let holding = true;
  let heldArrived: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (heldArrived = resolve));
  const embed = (recorded: RecordedRequest, response: Parameters<ConstructorParameters<typeof HttpPeer>[0]>[1]) => {
    const body = JSON.parse(recorded.body) as { input: string[]; model: string };
    const answer = () =>
      sendJson(response, 200, {
        object: 'list',
        model: body.model,
        data: body.input.map((text, index) => ({ object: 'embedding', index, embedding: [1, text.length % 7, 1] })),
      });
    // The query embedding of the held search waits until the test lets it go, past the swap.
    if (holding && body.input.length === 1 && body.input[0].includes('heldquery')) {
      held.push(answer);
      heldArrived();
    } else answer();
  };
  const peer = new HttpPeer(embed);
  let app: TestApp;

  beforeAll(async () => {
    const url = await peer.start();
    // SEARCH_WORKERS=0: the swap happens on the thread serving the held query, so the old store must outlive it.
    app = await startTestApp({
      KN_DIR: space.knDir,
      DOCS_DIR: path.join(space.root, 'no-docs'),
      INDEX_DIR: space.indexDir,
      AUTH_MODE: 'none',
      KN_WATCH: 'false',
      SEARCH_WORKERS: '0',
      EMBEDDING_URL: url,
      EMBEDDING_MODEL: 'fake',
    });
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
    rmSync(space.root, { recursive: true, force: true });
  });

  it('finishes the request on the old index and answers new ones from the new index', async () => {
    const inFlight = request(app.url)
      .post(`${KN}/kn_search`)
      .set(INTERNAL_CALLER)
      .send({ kn_id: KN_ID, query: '糖尿病 heldquery' })
      .then((response) => response);
    await arrived;
    appendFileSync(path.join(space.folder, 'data', 'patient.csv'), NEW_PATIENT);
    const reloaded = await request(app.url).post(`${KN}/networks/${KN_ID}/reload`).set(INTERNAL_CALLER).expect(200);
    expect(reloaded.body.state).toBe('ready');
    expect(await patient(app, 'P901')).toHaveLength(1);
    holding = false;
    for (const answer of held.splice(0)) answer();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.object_types.length).toBeGreaterThan(0);
  });
});
