import * as path from 'node:path';
import request from 'supertest';
import { prepareActionNetworks } from './support/action-fixture';
import { INTERNAL_CALLER, startTestApp, TestApp } from './support/app';
import { freePort } from './support/free-port';
import { HttpPeer, sendJson } from './support/http-peer';
import { ScratchDir, scratchDir, testMcpServers } from './support/mcp-fixtures';

describe('get_action_info over the fixture BKN network (e2e, embedded KN + operators)', () => {
  const route = '/api/agent-retrieval/in/v1/kn/get_action_info';
  let app: TestApp;
  let scratch: ScratchDir;
  let peer: HttpPeer;

  beforeAll(async () => {
    scratch = scratchDir('action-kn');
    peer = new HttpPeer((_request, response) => sendJson(response, 201, { ticket_id: 'T-9' }));
    await peer.start();
    const port = await freePort();
    app = await startTestApp({
      PORT: String(port),
      KN_DIR: prepareActionNetworks(scratch, peer.url),
      MCP_SERVERS_FILE: scratch.file('mcp.json', testMcpServers(path.join(scratch.dir, 'pid'))),
      ACTION_PROXY_BASE_URL: `http://127.0.0.1:${port}`,
    });
  });

  afterAll(async () => {
    await app.close();
    await peer.stop();
    scratch.remove();
  });

  it('recalls the MCP action bound to server-everything echo and runs it with flat arguments', async () => {
    const response = await request(app.url)
      .post(route)
      .set('x-account-id', 'u-1')
      .set('x-account-type', 'user')
      .send({ kn_id: 'ops_actions', at_id: 'echo_status', _instance_identity: { service_id: 'svc-1' } })
      .expect(200);
    expect(response.body.headers).toEqual({ 'x-account-id': 'u-1', 'x-account-type': 'user' });
    const [tool] = response.body._dynamic_tools;
    expect(tool).toMatchObject({
      name: 'echo',
      parameters: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
      fixed_params: { message: 'payment-api' },
      api_url: `${app.url}/api/agent-retrieval/in/v1/mcp/proxy/everything/tools/echo/call`,
      api_call_strategy: 'kn_action_recall',
    });
    const result = await request(tool.api_url).post('').set(INTERNAL_CALLER).send(tool.fixed_params).expect(200);
    expect(result.body.content[0].text).toBe('Echo: payment-api');
  });

  it('recalls the toolbox action with X-Kn-ID and runs it with layered arguments', async () => {
    const response = await request(app.url)
      .post(route)
      .set(INTERNAL_CALLER)
      .set('x-kn-id', 'ops_actions')
      .send({ at_id: 'open_ticket', _instance_identities: [{ service_id: 'svc-2' }] })
      .expect(200);
    const [tool] = response.body._dynamic_tools;
    expect(tool.fixed_params).toEqual({
      header: { 'X-Ticket-Source': 'agent' },
      path: { team: 'discovery' },
      query: { priority: 'P2' },
      body: { service_name: 'search-api' },
    });
    const args = { ...tool.fixed_params, body: { ...tool.fixed_params.body, title: 'slow queries' } };
    const result = await request(tool.api_url).post('').set(INTERNAL_CALLER).send(args).expect(200);
    expect(result.body).toMatchObject({ status_code: 201, body: { ticket_id: 'T-9' } });
    expect(peer.requests.at(-1)!.url).toBe('/ticket-api/teams/discovery/tickets?priority=P2');
  });
});
