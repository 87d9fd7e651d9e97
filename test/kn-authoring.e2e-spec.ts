/**
 * A newcomer's path through the authoring tools: `npm run kn -- init` writes the example network,
 * `npm run kn -- check` passes it untouched and names file and line of each problem once it is broken,
 * and the service serves the scaffold from KN_DIR. Runs the real npm script (which runs dist/: build first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp } from './support/app';

const ROOT = path.join(__dirname, '..');
const KN = '/api/agent-retrieval/in/v1/kn';

/** `npm run kn -- …` typed in `cwd` (npm hands the CLI that folder as INIT_CWD). */
function kn(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('npm', ['--prefix', ROOT, 'run', '--silent', 'kn', '--', ...args], {
    cwd,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('authoring a network with npm run kn (e2e)', () => {
  let workspace: string;
  let networks: string;

  beforeEach(() => {
    workspace = mkdtempSync(path.join(tmpdir(), 'kn-authoring-'));
    networks = path.join(workspace, 'networks');
    const init = kn(workspace, 'init', 'networks');
    expect(init).toMatchObject({ status: 0, stdout: expect.stringContaining('wrote networks/bookshop/') });
  });

  afterEach(() => rmSync(workspace, { recursive: true, force: true }));

  it('init then check, editing nothing, passes with a summary of what was loaded', () => {
    const check = kn(workspace, 'check', 'networks');
    expect(check.stdout).toBe('');
    expect(check.stderr).toContain(
      'ok networks/bookshop: network "bookshop", 3 object types, 2 relation types, 1 action types, ' +
        '1 concept groups, 1 metrics, 11 instances',
    );
    expect(check.status).toBe(0);
    // The network folder itself can be checked too.
    expect(kn(path.join(networks, 'bookshop'), 'check', '.').status).toBe(0);
  });

  it('a broken CSV header, a duplicate key and a dangling relation end: exit 1, every problem at file:line', () => {
    const customers = path.join(networks, 'bookshop', 'data', 'customer.csv');
    const rows = readFileSync(customers, 'utf8').replace('customer_id,name,city', 'customer_id,name,town');
    writeFileSync(customers, `${rows}C001,Ada again,Paris,false,2025-01-01\n`);
    const relation = path.join(networks, 'bookshop', 'relation_types', 'order_placed_by_customer.bkn');
    writeFileSync(
      relation,
      readFileSync(relation, 'utf8').replace('| order | customer | direct |', '| order | client | direct |'),
    );

    const check = kn(workspace, 'check', 'networks');
    expect(check.status).toBe(1);
    const lines = check.stdout.trim().split('\n').sort();
    expect(lines).toEqual([
      'networks/bookshop/data/customer.csv:1: declared column "city" missing (network "bookshop", object type customer); loaded as null',
      'networks/bookshop/data/customer.csv:5: duplicate primary key ["C001"] (first on line 2)',
      'networks/bookshop/relation_types/order_placed_by_customer.bkn:17: endpoint object type "client" is not defined in this network',
    ]);
    expect(check.stderr).toContain(
      'warning: networks/bookshop/data/customer.csv:1: column "town" is not a data property of customer; ignored',
    );
    expect(check.stderr).toContain('kn: 3 problems');
  });

  it('refuses to scaffold over a folder that is not empty, and explains its usage', () => {
    expect(kn(workspace, 'init', 'networks')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('is not empty'),
    });
    expect(kn(workspace, 'lint', 'networks')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('init <dir>'),
    });
  });

  it('serves the scaffold from KN_DIR: instances, relations and search answer', async () => {
    const app = await startTestApp({ KN_DIR: networks, AUTH_MODE: 'none' });
    try {
      const post = (route: string, body: object) =>
        request(app.url)
          .post(`${KN}/${route}`)
          .set(INTERNAL_CALLER)
          .send({ kn_id: 'bookshop', ...body });
      const listed = await request(app.url).get(`${KN}/networks`).set(INTERNAL_CALLER).expect(200);
      expect(listed.body.networks).toEqual([
        expect.objectContaining({ id: 'bookshop', object_type_count: 3, relation_type_count: 2, instance_count: 11 }),
      ]);
      const open = await post('query_object_instance', {
        ot_id: 'order',
        condition: { field: 'status', operation: '==', value_from: 'const', value: 'open' },
      }).expect(200);
      expect((open.body.datas as { order_id: string }[]).map((row) => row.order_id).sort()).toEqual(['O1002', 'O1004']);
      const search = await post('kn_search', { query: 'lighthouse storm' }).expect(200);
      expect(JSON.stringify(search.body)).toContain('Harbour Lights');
    } finally {
      await app.close();
    }
  });
});

describe('the authoring guide (docs/knowledge-networks.md)', () => {
  const template = path.join(ROOT, 'examples', 'starter', 'bookshop');
  const files = (dir: string, prefix = ''): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(path.join(dir, name)).isDirectory()
        ? files(path.join(dir, name), `${prefix}${name}/`)
        : [`${prefix}${name}`],
    );

  it('shows every file init writes, word for word', () => {
    const guide = readFileSync(path.join(ROOT, 'docs', 'knowledge-networks.md'), 'utf8');
    const shown = new Map(
      [...guide.matchAll(/^#### `bookshop\/([^`]+)`\n\n~~~~\w*\n([\s\S]*?)~~~~$/gm)].map(([, file, text]) => [
        file,
        text,
      ]),
    );
    const written = files(template).sort();
    expect([...shown.keys()].sort()).toEqual(written);
    for (const file of written) {
      expect({ file, text: shown.get(file) }).toEqual({ file, text: readFileSync(path.join(template, file), 'utf8') });
    }
  });
});
