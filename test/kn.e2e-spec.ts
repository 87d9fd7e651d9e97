import * as path from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';

const FIXTURES = path.join(__dirname, 'fixtures', 'networks');
const PUBLIC = '/api/agent-retrieval/v1/kn';
const PRIVATE = '/api/agent-retrieval/in/v1/kn';

describe('knowledge-network routes (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ KN_DIR: FIXTURES, AUTH_MODE: 'none' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('lists networks on both prefixes', async () => {
    for (const prefix of [PUBLIC, PRIVATE]) {
      const response = await request(app.url).get(`${prefix}/networks`).expect(200);
      expect(response.body.networks).toEqual([
        expect.objectContaining({ id: 'clinic_mini', object_type_count: 4, relation_type_count: 3, action_type_count: 2, instance_count: 24 }),
      ]);
    }
  });
});
