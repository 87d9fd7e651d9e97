import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { startTestApp } from './support/app';
import { childEnv } from './support/child-env';

const LAUNCHER = path.join(__dirname, '..', 'bin', 'index.js');
const FIXTURE = path.join(__dirname, 'fixtures', 'networks', 'clinic-mini');

/** `npm run index -- …` runs this launcher on the built CLI. */
function indexCli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, [LAUNCHER, ...args], {
    env: childEnv({ LOG_LEVEL: 'silent', ...env }),
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('index CLI (e2e)', () => {
  let root: string;
  let knDir: string;
  let indexDir: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'index-cli-'));
    knDir = path.join(root, 'networks');
    indexDir = path.join(root, 'indexes');
    cpSync(FIXTURE, path.join(knDir, 'clinic-mini'), { recursive: true });
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds ahead of time with progress, and a service started read-only opens the file', async () => {
    const built = indexCli([knDir, '--index-dir', indexDir]);
    expect(built.status).toBe(0);
    expect(built.stderr).toMatch(/\[clinic-mini\] [\d.]+ s object type patient: \d+ instance\(s\)/);
    expect(built.stdout).toMatch(/clinic-mini: network "clinic_mini", \d+ instance\(s\), indexed in/);
    expect(readdirSync(indexDir).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1);

    const again = indexCli([path.join(knDir, 'clinic-mini')], { INDEX_DIR: indexDir });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/already indexed/);

    const app = await startTestApp({ KN_DIR: knDir, INDEX_DIR: indexDir, INDEX_READ_ONLY: 'true', AUTH_MODE: 'none' });
    try {
      const health = await request(app.url).get('/health').expect(200);
      expect(health.body.details.knowledge_network.networks[0].index).toMatchObject({ reused: true, state: 'ready' });
    } finally {
      await app.close();
    }
  });

  it('builds the documents index too, and a service started read-only opens it', async () => {
    const docs = path.join(root, 'docs');
    cpSync(path.join(__dirname, '..', 'examples', 'docs'), docs, { recursive: true });
    const built = indexCli([knDir, '--index-dir', indexDir, '--docs', docs]);
    expect(built.status).toBe(0);
    expect(built.stdout).toMatch(/documents: 2 knowledge base\(s\), \d+ passage\(s\), indexed in [\d.]+ s → docs\./);
    expect(readdirSync(indexDir).filter((name) => name.endsWith('.sqlite'))).toHaveLength(2);
    expect(indexCli([knDir, '--index-dir', indexDir, '--docs', docs]).stdout).toMatch(/documents: .* already indexed/);

    const app = await startTestApp({
      KN_DIR: knDir,
      DOCS_DIR: docs,
      INDEX_DIR: indexDir,
      INDEX_READ_ONLY: 'true',
      AUTH_MODE: 'none',
    });
    try {
      const health = await request(app.url).get('/health').expect(200);
      expect(health.body.details.knowledge_base).toMatchObject({ state: 'ready', index: { reused: true } });
    } finally {
      await app.close();
    }
  });

  it('exits non-zero naming file and line of bad input, and with usage on a missing folder', () => {
    appendFileSync(
      path.join(knDir, 'clinic-mini', 'data', 'patient.csv'),
      'P999,坏行,old,女,杭州,false,x,2024-01-01\n',
    );
    writeFileSync(path.join(root, 'not-a-folder'), '');
    const bad = indexCli([knDir, '--index-dir', indexDir]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/networks\/clinic-mini\/data\/patient\.csv:\d+: column "age"/);
    expect(bad.stdout).toMatch(/0 of 1 network\(s\) indexed/);
    expect(readdirSync(indexDir)).toEqual([]);

    const missing = indexCli([path.join(root, 'not-a-folder'), '--index-dir', indexDir]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/is not a folder/);
    const unwritable = indexCli([knDir, '--index-dir', path.join(root, 'not-a-folder', 'x')]);
    expect(unwritable.status).toBe(2);
    expect(unwritable.stderr).toMatch(/cannot write .*ENOTDIR/);
  });
});
