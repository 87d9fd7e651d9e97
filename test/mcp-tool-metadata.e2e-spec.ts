/**
 * Tool metadata as both protocol eras see it: an SDK 1.x client (2025-11-25) and an SDK 2.x client
 * negotiating 2026-07-28 list the same tools in the same order, each with a top-level title and
 * `_meta.securitySchemes` naming what the endpoint really requires, and get identical
 * structuredContent for the same call.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startTestApp, TestApp } from './support/app';
import request from 'supertest';
import { connectV1, connectV2, MCP_PATH, ToolCallResult } from './support/mcp-clients';

/** The tool names of the "## Tools" table of docs/mcp.md, in its row order (a row may name two tools). */
function documentedToolOrder(): string[] {
  const guide = readFileSync(path.resolve(__dirname, '../docs/mcp.md'), 'utf8');
  const table = guide
    .split('\n## Tools\n')[1]
    .split('\n\n')
    .find((block) => block.startsWith('| tool |'))!;
  return table
    .split('\n')
    .slice(2)
    .flatMap((row) => [...row.split('|')[1].matchAll(/`([a-z_]+)`/g)].map((match) => match[1]));
}

interface ListedTool {
  name: string;
  title?: string;
  annotations?: { title?: string; readOnlyHint?: boolean };
  _meta?: { securitySchemes?: unknown };
}

describe('MCP tool metadata in both eras (e2e)', () => {
  let app: TestApp;
  const headers = { Authorization: 'Bearer tok-meta', 'X-Kn-ID': 'clinic' };

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'static', AUTH_STATIC_TOKENS: 'tok-meta=meta:user' });
  });

  afterAll(async () => {
    await app.close();
  });

  it('lists the same tools in the same order, titled, with the endpoint’s real security scheme', async () => {
    const legacy = await connectV1(app.url, headers);
    const modern = await connectV2(app.url, headers, true);
    try {
      const v1 = (await legacy.listTools()).tools as ListedTool[];
      const v2 = (await modern.listTools()).tools as ListedTool[];
      expect(v2.map((tool) => tool.name)).toEqual(v1.map((tool) => tool.name));
      // A clinic connection without a code index or named documents: no discovery, code or document tools.
      const notOffered = ['list_knowledge_networks', 'ci_graph_rag', 'ci_call_chain', 'weknora_search'];
      const offered = documentedToolOrder().filter(
        (name) => !notOffered.includes(name) && name !== 'weknora_list_knowledge_bases',
      );
      expect(v1.map((tool) => tool.name)).toEqual(offered);
      for (const tool of [...v1, ...v2]) {
        expect(tool.title).toBeTruthy();
        // Said once: the annotations' title would repeat it.
        expect(tool.annotations?.title).toBeUndefined();
        expect(tool._meta?.securitySchemes).toEqual([{ type: 'http', scheme: 'bearer' }]);
      }
      // GET /mcp/info: the same catalogue without a handshake, behind the same authentication.
      await request(app.url).get(`${MCP_PATH}/info`).set('X-Kn-ID', 'clinic').expect(401);
      const info = await request(app.url).get(`${MCP_PATH}/info`).set(headers).expect(200);
      expect(info.body).toMatchObject({ server: { name: 'agent-retrieval' }, kn_id: 'clinic' });
      expect(info.body.instructions).toContain('kn_search');
      expect(info.body.tools).toEqual(v1);
      expect((info.body.prompts as { name: string }[]).map((prompt) => prompt.name)).toEqual(
        (await legacy.listPrompts()).prompts.map((prompt) => prompt.name),
      );
      const args = { name: 'kn_search', arguments: { query: '糖尿病' } };
      const a = (await legacy.callTool(args)) as ToolCallResult;
      const b = (await modern.callTool(args)) as ToolCallResult;
      expect(a.isError).toBeFalsy();
      expect(b.structuredContent).toEqual(a.structuredContent);
    } finally {
      await legacy.close();
      await modern.close();
    }
  });
});
