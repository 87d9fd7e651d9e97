import request from 'supertest';
import { startTestApp, TestApp } from './support/app';

describe('foundation (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('answers liveness without touching upstreams', async () => {
    const response = await request(app.url).get('/health/live').expect(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
