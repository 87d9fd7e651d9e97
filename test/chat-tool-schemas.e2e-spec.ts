/**
 * What the chat model is offered (issue 30): an MCP server over stdio whose tool schema has nested
 * `$defs`, a cycle and a dangling `$ref` is configured as an operator; the stand-in model records every
 * request, so the test reads the definitions exactly as the model received them — inlined, the cycle
 * cut, the dangling reference offered as any value — and that they fit CHAT_TOOL_DEFINITIONS_BUDGET_BYTES.
 * find_tools offers a tool that was not offered, from the next round on.
 */
import * as path from 'node:path';
import OpenAI from 'openai';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';
import { LlmStandin, toolMessages } from './support/llm-standin';
import { PROJECT_ROOT, scratchDir, ScratchDir } from './support/mcp-fixtures';

const SCHEMA_TOOLS_SERVER = path.join(PROJECT_ROOT, 'test', 'fixtures', 'schema-tools-mcp.js');
const BUDGET = 8192;

interface OfferedTool {
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

describe('chat tool schemas and the definitions budget (e2e)', () => {
  const model = new LlmStandin();
  let scratch: ScratchDir;
  let app: TestApp;
  let openai: OpenAI;

  beforeAll(async () => {
    scratch = scratchDir('chat-tool-schemas');
    const mcpServers = { mcpServers: { schemas: { command: process.execPath, args: [SCHEMA_TOOLS_SERVER] } } };
    app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'tok-alice=alice:user',
      LLM_BASE_URL: await model.start(),
      WORKSPACE_ROOT: path.join(scratch.dir, 'workspaces'),
      MCP_SERVERS_FILE: scratch.file('mcp.json', JSON.stringify(mcpServers)),
      ACCESS_POLICY: JSON.stringify({ user: { allow: ['*', 'schemas__*'], auto: ['@read_only', 'schemas__*'] } }),
    });
    openai = new OpenAI({ apiKey: 'tok-alice', baseURL: `${app.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await app?.close();
    await model.stop();
    scratch?.remove();
  });

  const ask = (content: string) =>
    openai.chat.completions.create({
      model: 'standin-model',
      messages: [{ role: 'user', content }],
      kn_id: 'clinic',
    } as never) as unknown as Promise<
      OpenAI.Chat.Completions.ChatCompletion & { tool_execution: { tools_called: string[] } }
    >;

  const offeredIn = (turn: number): OfferedTool[] => (model.bodies[turn].tools ?? []) as OfferedTool[];
  const named = (tools: OfferedTool[], name: string) => tools.find((tool) => tool.function.name === name);

  it('offers the relevant tool with its schema inlined, the cycle cut and the dangling $ref as any value', async () => {
    model.use(() => ({ content: 'ok' }));
    await ask('Place an order for a customer in the toys category');
    const tools = offeredIn(0);
    const placeOrder = named(tools, 'schemas__place_order');
    expect(placeOrder).toBeDefined();
    expect(JSON.stringify(placeOrder)).not.toMatch(/"\$(ref|defs|schema|id)"/);
    expect(placeOrder!.function.parameters).toEqual({
      type: 'object',
      properties: {
        customer: {
          type: 'object',
          description: 'Who orders',
          properties: {
            name: { type: 'string' },
            address: {
              type: 'object',
              properties: {
                street: { type: 'string' },
                geo: { type: 'object', properties: { lat: { type: 'number' }, lng: { type: 'number' } } },
              },
              required: ['street'],
            },
          },
          required: ['name'],
        },
        category: {
          type: 'object',
          description: 'A product category',
          properties: {
            name: { type: 'string' },
            // The cycle: the second Category on the path is cut to its type and description.
            parent: { type: 'object', description: 'Parent category' },
          },
        },
        coupon: { description: 'Discount coupon' },
        quantity: { type: 'integer', minimum: 1 },
      },
      required: ['customer', 'quantity'],
    });
  });

  it('offers find_tools and definitions that fit the budget, far fewer than the caller may use', async () => {
    model.use(() => ({ content: 'ok' }));
    await ask('hello');
    const tools = offeredIn(0);
    const offeredBytes = Buffer.byteLength(JSON.stringify(tools));
    expect(offeredBytes).toBeLessThanOrEqual(BUDGET);
    expect(tools[0].function.name).toBe('find_tools');
    expect(tools.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['kn_search', 'read_file']));
    const listed = await request(app.url).get('/v1/tools').set('authorization', 'Bearer tok-alice').expect(200);
    const all = listed.body.data as OfferedTool[];
    expect(all.map((tool) => tool.function.name)).toEqual(
      expect.arrayContaining(['kn_search', 'execute_action', 'schemas__place_order', 'schemas__ping']),
    );
    expect(named(all, 'find_tools')).toBeUndefined();
    expect(Buffer.byteLength(JSON.stringify(all))).toBeGreaterThan(2 * BUDGET);
    // The tool API lists the same converted definition the model reads.
    expect(JSON.stringify(named(all, 'schemas__place_order'))).not.toContain('$ref');
  });

  it('find_tools reveals a tool that was not offered, and the model can call it in the next round', async () => {
    model.use((body, turn) => {
      if (turn === 1) return { tool_calls: [{ id: 'find', name: 'find_tools', arguments: { query: 'place order' } }] };
      if (turn === 2) {
        return {
          tool_calls: [
            { id: 'order', name: 'schemas__place_order', arguments: { customer: { name: 'Ann' }, quantity: 2 } },
          ],
        };
      }
      return { content: toolMessages(body).get('order') ?? 'no order result' };
    });
    const answer = await ask('hello');
    expect(named(offeredIn(0), 'schemas__place_order')).toBeUndefined();
    expect(toolMessages(model.bodies[1]).get('find')).toContain('- schemas__place_order: Places an order');
    expect(named(offeredIn(1), 'schemas__place_order')).toBeDefined();
    expect(answer.tool_execution.tools_called).toEqual(['find_tools', 'schemas__place_order']);
    expect(answer.choices[0].message.content).toBe('place_order {"customer":{"name":"Ann"},"quantity":2}');
  });
});
