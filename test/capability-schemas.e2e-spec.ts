/**
 * One schema per capability (issue 29, acceptance 5): the input JSON Schema MCP advertises in tools/list
 * and the request body OpenAPI documents for the REST twin are the same schema, and the function parameters
 * the tool API and the chat offer are that schema as function calling takes it (issue 30: references
 * inlined by the seed 000 converter), for every capability of the catalog.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { CapabilityCatalog } from '../src/capabilities/capability-catalog';
import { advertisedInput } from '../src/capabilities/capability-input';
import { listedSchema } from '../src/capabilities/capability-listing';
import { functionParameters } from '../src/chat/tools/function-parameters';
import type { CapabilityDefinition } from '../src/capabilities/capability';
import { PRIVATE_PREFIX, PUBLIC_PREFIX } from '../src/common/http/route-prefixes';
import { startTestApp, TestApp } from './support/app';
import { freshDir } from './support/graph-rag-cli';
import { connectV1 } from './support/mcp-clients';

type Schema = Record<string, unknown>;

interface OpenApiOperation {
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  parameters?: { name: string; in: string }[];
}

/**
 * The same schema as a listing shows it: MCP lists it without what says nothing to a model (the dialect,
 * empty objects, safe-integer bounds); OpenAPI documents it whole.
 */
const asListed = (schema: Schema): Schema => listedSchema(schema, 'en-US');

const HOISTED = /^#\/components\/schemas\/Schema\d+_(.+)$/;

/**
 * A request body as the schema was before OpenAPI moved its `$defs` into components (where `#` is the
 * document): the hoisted parts back under `$defs`, their references `#/$defs/…` again.
 */
function withOwnDefinitions(schema: Schema, components: Record<string, Schema>): Schema {
  const definitions: Record<string, Schema> = {};
  const restore = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(restore);
    if (typeof node !== 'object' || node === null) return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, restore(value)])) as Schema;
    const reference = typeof copy.$ref === 'string' ? copy.$ref : '';
    const hoisted = HOISTED.exec(reference);
    if (hoisted) {
      if (!(hoisted[1] in definitions)) {
        // Claimed before the part is restored: a recursive part refers to itself.
        definitions[hoisted[1]] = {};
        definitions[hoisted[1]] = restore(components[reference.split('/').pop()!]) as Schema;
      }
      copy.$ref = `#/$defs/${hoisted[1]}`;
    }
    return copy;
  };
  const restored = restore(schema) as Schema;
  return Object.keys(definitions).length > 0 ? { ...restored, $defs: definitions } : restored;
}

describe('one input schema per capability at every door (e2e)', () => {
  let app: TestApp;
  let mcp: Client;
  let mcpOpen: Client;
  let capabilities: readonly CapabilityDefinition[];
  let paths: Record<string, Record<string, OpenApiOperation>>;
  let components: Record<string, Schema>;
  let toolApi: Map<string, Schema>;

  beforeAll(async () => {
    app = await startTestApp({ CODE_ROOT: 'examples/code', DATA_DIR: freshDir('capability-schemas-') });
    capabilities = app.app
      .get(CapabilityCatalog)
      .list()
      .map((capability) => capability.definition);
    // Every MCP capability is listed on one of the two: a network's connection, or one without a network.
    mcp = await connectV1(app.url, { 'X-Kn-ID': 'clinic', 'X-WeKnora-KB-IDs': 'clinic-guidelines' });
    mcpOpen = await connectV1(app.url);
    const document = (await request(app.url).get('/api/agent-retrieval/docs-json').expect(200)).body;
    paths = document.paths as typeof paths;
    components = document.components.schemas as typeof components;
    const listed = await request(app.url).get('/v1/tools').expect(200);
    toolApi = new Map(
      (listed.body.data as { function: { name: string; parameters: Schema } }[]).map((tool) => [
        tool.function.name,
        tool.function.parameters,
      ]),
    );
  });

  afterAll(async () => {
    await mcp.close();
    await mcpOpen.close();
    await app.close();
  });

  it('MCP and the REST body in OpenAPI advertise the same schema, the tool API its function-call form', async () => {
    const listed = [...(await mcpOpen.listTools()).tools, ...(await mcp.listTools()).tools];
    const mcpTools = new Map(listed.map((tool) => [tool.name, tool.inputSchema as Schema]));
    let compared = 0;
    for (const definition of capabilities) {
      const schemas: [string, Schema][] = [];
      if (definition.doors.includes('mcp')) schemas.push(['mcp', mcpTools.get(definition.name)!]);
      if (definition.doors.includes('tool-api')) {
        expect({ capability: definition.name, door: 'tool-api', schema: toolApi.get(definition.name) }).toEqual({
          capability: definition.name,
          door: 'tool-api',
          schema: functionParameters(advertisedInput(definition)).parameters,
        });
        compared += 1;
      }
      const rest = definition.rest;
      if (rest) {
        const prefix = rest.prefixes === 'private' ? PRIVATE_PREFIX : PUBLIC_PREFIX;
        const operation = paths[`${prefix}/${rest.path.replace(/:(\w+)/g, '{$1}')}`]?.[rest.method.toLowerCase()];
        expect({ capability: definition.name, documented: operation !== undefined }).toEqual({
          capability: definition.name,
          documented: true,
        });
        if (rest.method === 'POST') {
          const body = operation!.requestBody!.content['application/json'].schema;
          schemas.push(['rest', asListed(withOwnDefinitions(body, components))]);
        } else {
          // A GET takes its input from the query string: every argument is a documented query parameter.
          const properties = Object.keys((schemas[0]?.[1].properties as Schema | undefined) ?? {});
          const query = (operation!.parameters ?? []).filter((parameter) => parameter.in === 'query');
          for (const name of properties.filter((each) => each !== 'response_format')) {
            expect(query.map((parameter) => parameter.name)).toContain(name);
          }
        }
      }
      for (const [door, schema] of schemas.slice(1)) {
        expect({ capability: definition.name, door, schema }).toEqual({
          capability: definition.name,
          door,
          schema: schemas[0][1],
        });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(capabilities.length);
  });
});
