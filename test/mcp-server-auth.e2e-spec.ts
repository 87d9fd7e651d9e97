import { MCP_STRATEGY, McpStrategy } from '@rekog/mcp-nest';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { HttpPeer, sendJson } from './support/http-peer';
import { connectV1, errorBodyOf, MCP_PATH, ToolCallResult } from './support/mcp-clients';

const RPC_HEADERS = { Accept: 'application/json, text/event-stream', 'Content-Type': 'application/json' };
const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const PRM_PATH = '/.well-known/oauth-protected-resource/api/agent-retrieval/v1/mcp';
const ISSUER = 'https://auth.example.com';

/** Plays Ory Hydra's admin introspection endpoint: one good token, everything else inactive. */
function hydra(): HttpPeer {
  return new HttpPeer((recorded, response) => {
    if (recorded.method !== 'POST' || recorded.url !== '/admin/oauth2/introspect') return sendJson(response, 404, {});
    const token = new URLSearchParams(recorded.body).get('token');
    if (token !== 'good-token') return sendJson(response, 200, { active: false });
    sendJson(response, 200, { active: true, sub: 'user-42', client_id: 'cursor', ext: { visitor_type: 'realname' } });
  });
}

describe('MCP server auth (e2e)', () => {
  const peer = hydra();
  let app: TestApp;
  let behindProxy: TestApp;

  beforeAll(async () => {
    const hydraUrl = await peer.start();
    const env = {
      AUTH_MODE: 'introspect',
      INTROSPECT_URL: `${hydraUrl}/admin/oauth2/introspect`,
      AUTH_ISSUER_URL: ISSUER,
      AUTH_CACHE_TTL_S: '0',
    };
    app = await startTestApp(env);
    behindProxy = await startTestApp({ ...env, PUBLIC_BASE_URL: 'https://agent.example.com/' });
  });

  afterAll(async () => {
    await app.close();
    await behindProxy.close();
    await peer.stop();
  });

  it('no token: HTTP 401 with a resource_metadata challenge before any JSON-RPC', async () => {
    const response = await request(app.url).post(MCP_PATH).set(RPC_HEADERS).send(LIST_TOOLS);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain(`resource_metadata="${app.url}${PRM_PATH}"`);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    expect(response.body.code).toBe('agentRetrieval.Unauthorized.TokenMissing');
    expect(response.body.jsonrpc).toBeUndefined();
    const get = await request(app.url).get(MCP_PATH).set(RPC_HEADERS);
    expect(get.status).toBe(401);
  });

  it('a 401 on a REST route carries no resource_metadata: the MCP route alone declares it', async () => {
    const response = await request(app.url).get('/api/agent-retrieval/v1/kn/networks').expect(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="agent-retrieval"');
  });

  it('bad token: 401 invalid_token with the challenge; Hydra saw the form-encoded token', async () => {
    const response = await request(app.url)
      .post(MCP_PATH)
      .set(RPC_HEADERS)
      .set('Authorization', 'Bearer stolen-token')
      .send(LIST_TOOLS);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(response.headers['www-authenticate']).toContain('resource_metadata=');
    expect(peer.requests.some((seen) => seen.body === 'token=stolen-token')).toBe(true);
  });

  it('the SDK client is refused without a token and served with a good one', async () => {
    await expect(connectV1(app.url, { 'X-Kn-ID': 'clinic' })).rejects.toThrow(/401|Unauthorized/i);
    const client = await connectV1(app.url, { Authorization: 'Bearer good-token', 'X-Kn-ID': 'clinic' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['kn_search', 'get_action_info']));
    // detail=full: the upstream answer, as REST gives it by default.
    const args = { query: '糖尿病', detail: 'full' };
    const result = (await client.callTool({ name: 'kn_search', arguments: args })) as ToolCallResult;
    expect(result.isError).toBeUndefined();
    const viaRest = await request(app.url)
      .post('/api/agent-retrieval/v1/kn/kn_search')
      .set({ Authorization: 'Bearer good-token', 'X-Kn-ID': 'clinic' })
      .send({ query: '糖尿病' })
      .expect(200);
    expect(result.structuredContent).toEqual(viaRest.body);
    const unknown = (await client.callTool({
      name: 'kn_search',
      arguments: { query: 'x', kn_id: 'nope' },
    })) as ToolCallResult;
    expect(errorBodyOf(unknown).code).toBe('agentRetrieval.NotFound.KnowledgeNetworkNotFound');
    await client.close();
  });

  it('serves RFC 9728 metadata at the path-inserted and the root location', async () => {
    const challenge = await request(app.url).post(MCP_PATH).set(RPC_HEADERS).send(LIST_TOOLS);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(String(challenge.headers['www-authenticate']))![1];
    const expected = {
      resource: `${app.url}${MCP_PATH}`,
      authorization_servers: [ISSUER],
      bearer_methods_supported: ['header'],
    };
    const pathInserted = await request(metadataUrl).get('').expect(200);
    expect(pathInserted.body).toMatchObject(expected);
    const root = await request(app.url).get('/.well-known/oauth-protected-resource').expect(200);
    expect(root.body).toMatchObject(expected);
  });

  it('PUBLIC_BASE_URL names the resource and the metadata location', async () => {
    const challenge = await request(behindProxy.url).post(MCP_PATH).set(RPC_HEADERS).send(LIST_TOOLS).expect(401);
    expect(challenge.headers['www-authenticate']).toContain(`resource_metadata="https://agent.example.com${PRM_PATH}"`);
    const metadata = await request(behindProxy.url).get(PRM_PATH).expect(200);
    expect(metadata.body.resource).toBe('https://agent.example.com/api/agent-retrieval/v1/mcp');
  });
});

describe('MCP transport allowlist (e2e)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'static-token=user-7:user',
      MCP_ALLOWED_ORIGINS: 'app.example.com',
    });
  });

  afterAll(async () => {
    await app.close();
  });

  it('MCP_ALLOWED_ORIGINS: a foreign Origin gets a JSON-RPC 403 from the transport, a listed one is served', async () => {
    const send = (origin: string) =>
      request(app.url)
        .post(MCP_PATH)
        .set(RPC_HEADERS)
        .set('Authorization', 'Bearer static-token')
        .set('Origin', origin)
        .send(LIST_TOOLS);
    const foreign = await send('http://evil.example.com');
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    const listed = await send('https://app.example.com');
    expect(listed.status).toBe(200);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('kn_search');
  });

  it('no metadata document outside AUTH_MODE=introspect', async () => {
    await request(app.url).get(PRM_PATH).expect(404);
  });
});

describe('MCP server shutdown (e2e)', () => {
  it('app shutdown closes the MCP strategy and its transport', async () => {
    const app = await startTestApp();
    const strategy = app.app.get<McpStrategy>(MCP_STRATEGY);
    const closed = jest.spyOn(strategy, 'close');
    await request(app.url).post(MCP_PATH).set(RPC_HEADERS).send(LIST_TOOLS).expect(200);
    await app.close();
    expect(closed).toHaveBeenCalledTimes(1);
    await expect(fetch(`${app.url}${MCP_PATH}`, { method: 'POST' })).rejects.toThrow();
  });
});
