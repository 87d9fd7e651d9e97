import { cpSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp } from './support/app';
import { spawnService } from './support/spawned-service';
import { until } from './support/until';

const FIXTURE = path.join(__dirname, 'fixtures', 'networks', 'clinic-mini');
const BROKEN_TYPE = [
  '---',
  'type: object_type',
  'id: pod',
  'name: Pod',
  '---',
  '',
  '## ObjectType: Pod',
  '',
  '### Data Properties',
  '',
  '| Name | Display Name | Type | Description | Mapped Field |',
  '|------|--------------|------|-------------|--------------|',
  '| pod_name | Pod | string | name | pod_name |',
  '| restarts | Restarts | integr | typo in the type | restarts |',
  '',
  '### Keys',
  '',
  'Primary Keys: pod_name',
  '',
].join('\n');

/** A KN_DIR with the good fixture and a second network whose object type has a typo on line 14. */
function networksWithABrokenOne(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'kn-networks-'));
  cpSync(FIXTURE, path.join(root, 'clinic-mini'), { recursive: true });
  const broken = path.join(root, 'k8s-broken');
  mkdirSync(path.join(broken, 'object_types'), { recursive: true });
  writeFileSync(
    path.join(broken, 'network.bkn'),
    '---\ntype: knowledge_network\nid: k8s_broken\nname: Broken\n---\n\n# Broken\n',
  );
  writeFileSync(path.join(broken, 'object_types', 'pod.bkn'), BROKEN_TYPE);
  return root;
}

describe('knowledge-network loading (e2e)', () => {
  let root: string;

  beforeAll(() => {
    root = networksWithABrokenOne();
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('starts with a malformed network, names file and line in /health, and serves the others', async () => {
    const app = await startTestApp({ KN_DIR: root, AUTH_MODE: 'none' });
    try {
      const health = await request(app.url).get('/health/ready').expect(200);
      const failed = health.body.details.knowledge_network.failed as {
        folder: string;
        error: string;
      }[];
      expect(failed).toEqual([
        {
          folder: expect.stringMatching(/k8s-broken$/),
          error: expect.stringContaining('k8s-broken/object_types/pod.bkn:14: unknown data type "integr"'),
        },
      ]);
      const networks = await request(app.url)
        .get('/api/agent-retrieval/in/v1/kn/networks')
        .set(INTERNAL_CALLER)
        .expect(200);
      expect(networks.body.networks.map((network: { id: string }) => network.id)).toEqual(['clinic_mini']);
      await request(app.url)
        .post('/api/agent-retrieval/in/v1/kn/query_object_instance')
        .set(INTERNAL_CALLER)
        .send({ kn_id: 'clinic_mini', ot_id: 'doctor' })
        .expect(200);
    } finally {
      await app.close();
    }
  });

  it('fails start-up naming the file when KN_STRICT=true', async () => {
    await expect(startTestApp({ KN_DIR: root, AUTH_MODE: 'none', KN_STRICT: 'true' })).rejects.toThrow(
      /k8s-broken\/object_types\/pod\.bkn:14/,
    );
  });

  it('starts with an empty readiness list when KN_DIR does not exist', async () => {
    const app = await startTestApp({ KN_DIR: path.join(root, 'missing'), AUTH_MODE: 'none' });
    try {
      const health = await request(app.url).get('/health/ready').expect(200);
      expect(health.body.details.knowledge_network).toMatchObject({ networks: [], failed: [] });
    } finally {
      await app.close();
    }
  });

  describe('a data file without a declared column (issue 31, item 9)', () => {
    let gappy: string;

    /** clinic-mini with medicine.csv lacking `category` and `indication`, doctor.csv lacking `title`. */
    beforeAll(() => {
      gappy = mkdtempSync(path.join(tmpdir(), 'kn-gappy-'));
      const folder = path.join(gappy, 'clinic-mini');
      cpSync(FIXTURE, folder, { recursive: true });
      dropColumns(path.join(folder, 'data', 'medicine.csv'), ['category', 'indication']);
      dropColumns(path.join(folder, 'data', 'doctor.csv'), ['title']);
    });

    afterAll(() => {
      rmSync(gappy, { recursive: true, force: true });
    });

    it('fails start-up under KN_STRICT=true naming the file, the column and the network', async () => {
      const failure = startTestApp({ KN_DIR: gappy, AUTH_MODE: 'none', KN_STRICT: 'true' });
      await expect(failure).rejects.toThrow(
        /clinic-mini\/data\/medicine\.csv:1: declared columns "category", "indication" missing/,
      );
      await expect(failure).rejects.toThrow(/network "clinic_mini", object type medicine/);
      await expect(failure).rejects.toThrow(/clinic-mini\/data\/doctor\.csv:1: declared column "title" missing/);
    });

    it('otherwise starts, logs one warning per file, and serves the missing column as null', async () => {
      const service = await spawnService({ KN_DIR: gappy, AUTH_MODE: 'none', LOG_LEVEL: 'warn' });
      try {
        const warningLines = (): string[] =>
          service
            .stdout()
            .split('\n')
            .filter((line) => line.includes('declared column'));
        // The lines reach this process through a pipe, not necessarily in the chunk that said "listening".
        await until('both missing-column warnings are logged', () => warningLines().length >= 2, 5000);
        const warnings = warningLines().map((line) => (JSON.parse(line) as { msg: string }).msg);
        expect(warnings).toEqual([
          expect.stringMatching(
            /clinic-mini\/data\/doctor\.csv:1: declared column "title" missing \(network "clinic_mini"/,
          ),
          expect.stringMatching(
            /clinic-mini\/data\/medicine\.csv:1: declared columns "category", "indication" missing/,
          ),
        ]);
        const answer = await request(service.url)
          .post('/api/agent-retrieval/in/v1/kn/query_object_instance')
          .set(INTERNAL_CALLER)
          .send({ kn_id: 'clinic_mini', ot_id: 'doctor', limit: 1 })
          .expect(200);
        expect(answer.body.datas[0]).toMatchObject({ doctor_id: 'DR1', title: null });
      } finally {
        await service.stop();
      }
    });
  });
});

/** Rewrites a CSV without the named columns (these fixture files quote nothing). */
function dropColumns(file: string, names: string[]): void {
  const lines = readFileSync(file, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\n');
  const header = lines[0].split(',');
  const keep = header.map((name, index) => (names.includes(name.trim()) ? -1 : index)).filter((index) => index >= 0);
  writeFileSync(file, lines.map((line) => keep.map((index) => line.split(',')[index]).join(',')).join('\n') + '\n');
}
