import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';

const DOCS = path.join(__dirname, '..', 'examples', 'docs');
const KB_REST = '/api/agent-retrieval/v1/kb';

interface KbIndexStatus {
  hash: string;
  storage: string;
  built_at: string;
  reused: boolean;
  passages: number;
}

/** A DOCS_DIR holding a copy of the example documents (tests edit it), and an INDEX_DIR of its own. */
function workspace(): { root: string; docsDir: string; indexDir: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'kb-index-files-'));
  const docsDir = path.join(root, 'docs');
  cpSync(DOCS, docsDir, { recursive: true });
  return { root, docsDir, indexDir: path.join(root, 'indexes') };
}

async function kbHealth(app: TestApp): Promise<Record<string, unknown> & { index: KbIndexStatus }> {
  const health = await request(app.url).get('/health').expect(200);
  return health.body.details.knowledge_base as Record<string, unknown> & { index: KbIndexStatus };
}

const indexFiles = (dir: string): string[] => readdirSync(dir).filter((name) => name.endsWith('.sqlite'));

async function firstHit(app: TestApp, query: string): Promise<string> {
  const response = await request(app.url)
    .post(`${KB_REST}/search`)
    .send({ query, search_mode: 'keyword', top_k: 1, min_score: 0 })
    .expect(200);
  return (response.body.results as { knowledge_filename: string }[])[0]?.knowledge_filename ?? '';
}

describe('knowledge-base index files (e2e)', () => {
  let space: ReturnType<typeof workspace>;
  const start = (env: Record<string, string> = {}) =>
    startTestApp({ DOCS_DIR: space.docsDir, INDEX_DIR: space.indexDir, AUTH_MODE: 'none', KN_WATCH: 'false', ...env });

  beforeEach(() => {
    space = workspace();
  });

  afterEach(() => rmSync(space.root, { recursive: true, force: true }));

  it('indexes the documents folder once into INDEX_DIR; a restart opens the file; changed documents are another file', async () => {
    const first = await start();
    let built: KbIndexStatus;
    try {
      const health = await kbHealth(first);
      expect(health).toMatchObject({ backend: 'embedded', state: 'ready' });
      built = health.index;
      expect(built).toMatchObject({ storage: 'file', reused: false });
      expect(built.passages).toBeGreaterThan(0);
      expect(await firstHit(first, 'OOMKilled')).not.toBe('');
    } finally {
      await first.close();
    }
    const files = indexFiles(space.indexDir).filter((name) => name.startsWith('docs.'));
    expect(files).toEqual([expect.stringContaining(built.hash)]);
    expect(JSON.parse(readFileSync(path.join(space.indexDir, `${files[0]}.sha256`), 'utf8'))).toMatchObject({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const again = await start();
    try {
      expect((await kbHealth(again)).index).toMatchObject({ reused: true, hash: built.hash, built_at: built.built_at });
      expect(await firstHit(again, 'OOMKilled')).not.toBe('');
    } finally {
      await again.close();
    }

    const runbooks = path.join(space.docsDir, 'k8s-runbooks');
    const runbook = readdirSync(runbooks).find((name) => name.endsWith('.md') && name !== 'README.md')!;
    appendFileSync(path.join(runbooks, runbook), '\n\nzanzibarquokka appears only here.\n');
    const changed = await start();
    try {
      const index = (await kbHealth(changed)).index;
      expect(index).toMatchObject({ reused: false });
      expect(index.hash).not.toBe(built.hash);
      expect(await firstHit(changed, 'zanzibarquokka')).toBe(runbook);
    } finally {
      await changed.close();
    }
    expect(indexFiles(space.indexDir).filter((name) => name.startsWith('docs.'))).toHaveLength(1);
  });

  it('rebuilds a corrupt index file instead of serving it', async () => {
    const first = await start();
    const hash = (await kbHealth(first)).index.hash;
    await first.close();
    const file = path.join(
      space.indexDir,
      indexFiles(space.indexDir).find((name) => name.includes(hash))!,
    );
    writeFileSync(file, 'not an index');
    const again = await start();
    try {
      expect((await kbHealth(again)).index).toMatchObject({ reused: false, hash, storage: 'file' });
      expect(await firstHit(again, 'OOMKilled')).not.toBe('');
    } finally {
      await again.close();
    }
  });

  it('indexes in memory when INDEX_DIR cannot be written, and still searches', async () => {
    writeFileSync(path.join(space.root, 'plain-file'), '');
    const app = await start({ INDEX_DIR: path.join(space.root, 'plain-file', 'indexes') });
    try {
      expect((await kbHealth(app)).index).toMatchObject({ storage: 'memory', reused: false });
      expect(await firstHit(app, 'OOMKilled')).not.toBe('');
    } finally {
      await app.close();
    }
  });

  it('with INDEX_READ_ONLY and no index, reports the failure in /health and searches nothing', async () => {
    const app = await start({ INDEX_READ_ONLY: 'true', KN_DIR: path.join(space.root, 'no-networks') });
    try {
      const health = await request(app.url).get('/health').expect(200);
      expect(health.body.details.knowledge_base).toMatchObject({
        state: 'failed',
        error: expect.stringContaining('INDEX_READ_ONLY'),
      });
      const response = await request(app.url).post(`${KB_REST}/search`).send({ query: 'OOMKilled' }).expect(200);
      expect(response.body.results).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
