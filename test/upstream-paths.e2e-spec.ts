/**
 * Ids a caller supplies never climb an upstream's paths (issue 31 item 2): `..` in `X-WeKnora-KB-IDs`, in a
 * toolbox operation's path parameter or in an operator id bound for agent-operator-integration is a 400
 * naming the parameter, and the peer playing the upstream receives nothing at all.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import request from 'supertest';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { HttpPeer, sendJson } from './support/http-peer';
import { ScratchDir, scratchDir } from './support/mcp-fixtures';
import { RawHttpClient } from './support/raw-http';

const KB_SEARCH = '/api/agent-retrieval/v1/kb/search';
const PRIVATE = '/api/agent-retrieval/in/v1';

/** Every upstream answers 200 to anything: a request that reached it would pass unnoticed but for the log. */
const anything = (): HttpPeer =>
  new HttpPeer((_recorded, response) => sendJson(response, 200, { success: true, data: [] }));

describe('caller ids in upstream paths (e2e)', () => {
  describe('WeKnora: X-WeKnora-KB-IDs', () => {
    let weknora: HttpPeer;
    let app: TestApp;

    beforeAll(async () => {
      weknora = anything();
      app = await startTestApp({
        KB_BACKEND: 'weknora',
        WEKNORA_BASE_URL: await weknora.start(),
        WEKNORA_API_KEY: 'sk-paths-0123456789',
      });
    });

    afterAll(async () => {
      await app.close();
      await weknora.stop();
    });

    beforeEach(() => {
      weknora.requests.length = 0;
    });

    it.each(['vector', 'keyword', 'hybrid'])(
      '`..,.,kb1` is a 400 naming the header, and WeKnora hears nothing (%s)',
      async (mode) => {
        const response = await request(app.url)
          .post(KB_SEARCH)
          .set('x-language', 'en-US')
          .set('X-WeKnora-KB-IDs', '..,.,kb1')
          .send({ query: 'leave policy', search_mode: mode })
          .expect(400);
        expect(response.body.code).toBe('agentRetrieval.BadRequest.ValidationFormat');
        expect(response.body.details).toBe('X-WeKnora-KB-IDs must not be "." or ".."');
        expect(weknora.requests).toEqual([]);
      },
    );

    it.each(['kb1,%2e%2e', 'kb1,%252e%252e', 'kb1,a/b', 'kb1,..%2Fadmin', 'kb1,a\\b'])(
      'refuses the disguised id in %p before any call',
      async (ids) => {
        const response = await request(app.url)
          .post(KB_SEARCH)
          .set('X-WeKnora-KB-IDs', ids)
          .send({ query: 'leave policy', search_mode: 'vector' })
          .expect(400);
        expect(String(response.body.details)).toMatch(/^X-WeKnora-KB-IDs /);
        expect(weknora.requests).toEqual([]);
      },
    );

    it('still searches ordinary ids, each in its own path segment', async () => {
      await request(app.url)
        .post(KB_SEARCH)
        .set('X-WeKnora-KB-IDs', 'kb1,kb.2')
        .send({ query: 'leave policy', search_mode: 'vector' })
        .expect(200);
      expect(weknora.requests.map((r) => r.url).sort()).toEqual([
        '/api/v1/knowledge-bases/kb.2/hybrid-search',
        '/api/v1/knowledge-bases/kb1/hybrid-search',
      ]);
    });
  });

  describe('toolbox path parameters (embedded operators)', () => {
    let tool: HttpPeer;
    let scratch: ScratchDir;
    let app: TestApp;

    beforeAll(async () => {
      tool = new HttpPeer((recorded, response) => sendJson(response, 200, { served: recorded.url }));
      await tool.start();
      scratch = scratchDir('upstream-paths');
      // A network folder with one toolbox whose server lives under /files-api on the peer.
      mkdirSync(`${scratch.dir}/toolboxes`, { recursive: true });
      writeFileSync(
        `${scratch.dir}/toolboxes/files_toolbox.yaml`,
        [
          'openapi: 3.0.3',
          'info: {title: files, version: "1"}',
          'servers:',
          `  - url: ${tool.url}/files-api`,
          'paths:',
          '  /files/{name}:',
          '    get:',
          '      operationId: readFile',
          '      parameters:',
          '        - {name: name, in: path, required: true, schema: {type: string}}',
          '',
        ].join('\n'),
      );
      app = await startTestApp({ KN_DIR: scratch.dir });
    });

    afterAll(async () => {
      await app.close();
      await tool.stop();
      scratch.remove();
    });

    beforeEach(() => {
      tool.requests.length = 0;
    });

    const run = (name: string) =>
      request(app.url)
        .post(`${PRIVATE}/tool-box/files_toolbox/proxy/readFile`)
        .set(INTERNAL_CALLER)
        .set('x-language', 'en-US')
        .send({ path: { name } });

    it.each(['..', '.', '%2e%2e', '../../admin', 'a\\..\\b', '．．', 'a\u0000b'])(
      'refuses the path parameter %p with a 400 naming it, and calls nothing',
      async (name) => {
        const response = await run(name).expect(400);
        expect(String(response.body.details)).toMatch(/^path parameter "name" /);
        expect(tool.requests).toEqual([]);
      },
    );

    it('calls the tool under its server path for an ordinary value', async () => {
      const response = await run('report v1.txt').expect(200);
      expect(response.body.body).toEqual({ served: '/files-api/files/report%20v1.txt' });
      expect(tool.requests).toHaveLength(1);
    });
  });

  describe('operator ids bound for agent-operator-integration (KWeaver operators)', () => {
    let aoi: HttpPeer;
    let app: TestApp;
    let raw: RawHttpClient;

    beforeAll(async () => {
      aoi = new HttpPeer((_recorded, response) => sendJson(response, 200, { tools: [], content: [] }));
      app = await startTestApp({ OPERATOR_BACKEND: 'kweaver', OPERATOR_INTEGRATION_URL: await aoi.start() });
      raw = new RawHttpClient(app.url);
    });

    afterAll(async () => {
      raw.close();
      await app.close();
      await aoi.stop();
    });

    beforeEach(() => {
      aoi.requests.length = 0;
    });

    // Sent raw: an HTTP client would resolve `%2e%2e` itself before the service saw it.
    it.each([
      ['mcp_id', `${PRIVATE}/mcp/proxy/%2e%2e/tools/echo/call`],
      ['mcp_id', `${PRIVATE}/mcp/proxy/..%2F..%2Fadmin/tools/echo/call`],
      ['box_id', `${PRIVATE}/tool-box/%2e%2e/proxy/run`],
      ['tool_id', `${PRIVATE}/tool-box/box-001/proxy/%2E`],
    ])('refuses %s in %s with a 400 naming it, and AOI hears nothing', async (parameter, path) => {
      const response = await raw.send(
        {
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', 'x-language': 'en-US', ...INTERNAL_CALLER },
          body: Buffer.from('{}'),
        },
        10000,
      );
      expect(response.status).toBe(400);
      expect(String(JSON.parse(response.text).details)).toMatch(new RegExp(`^${parameter} `));
      expect(aoi.requests).toEqual([]);
    });
  });
});
