/**
 * The OpenAPI document a client generates from: a valid OpenAPI 3.1 document (checked by an independent
 * validator), listing every route the Express router serves, each operation with its security
 * requirement, a success schema, an error body per status and an example that fits its schema.
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from './support/app';

type Json = Record<string, unknown>;
type Operation = Json & { responses: Record<string, Json>; security?: Json[]; parameters?: Json[] };

const ROOT = path.join(__dirname, '..');
const VALIDATOR = path.join(
  ROOT,
  'node_modules',
  '@seriousme',
  'openapi-schema-validator',
  'bin',
  'validate-api-cli.js',
);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const PRIVATE = '/api/agent-retrieval/in/v1';
const OPEN = /^\/(health|metrics|\.well-known|console)(\/|$)/;

function operations(document: Json): { method: string; path: string; operation: Operation }[] {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([route, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path: route, operation: item[method] })),
  );
}

/** Every route the Express router serves, as `METHOD /path/{param}` (Swagger UI's own routes left out). */
function routerRoutes(app: TestApp): string[] {
  const router = (app.app.getHttpAdapter().getInstance() as { router: { stack: { route?: Json }[] } }).router;
  return router.stack.flatMap(({ route }) => {
    if (!route) return [];
    const routePath = String(route.path);
    if (routePath.startsWith('/api/agent-retrieval/docs')) return [];
    // A wildcard sub-path reaches the same handler as its base (the MCP endpoint), documented once.
    const documented = routePath.replace(/\/\*\w+$/, '').replace(/:(\w+)/g, '{$1}');
    return Object.keys(route.methods as Json).map((method) => `${method.toUpperCase()} ${documented}`);
  });
}

function resolve(document: Json, schema: Json): Json {
  return { ...schema, $defs: undefined, components: document.components };
}

describe('OpenAPI document (e2e)', () => {
  let app: TestApp;
  let document: Json;

  beforeAll(async () => {
    app = await startTestApp({ AUTH_MODE: 'none' });
    document = (await request(app.url).get('/api/agent-retrieval/docs-json').expect(200)).body as Json;
  });

  afterAll(async () => {
    await app.close();
  });

  it('is a valid OpenAPI 3.1 document, versioned like the package', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const verdict = JSON.parse(execFileSync(process.execPath, [VALIDATOR, file], { encoding: 'utf8' })) as Json;
      expect(verdict).toEqual({ valid: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(document.openapi).toBe('3.1.0');
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((document.info as Json).version).toBe(manifest.version);
  });

  it('lists every route of the router, chat, tools, MCP, health and metrics included', () => {
    const documented = new Set(
      operations(document).map(({ method, path: route }) => `${method.toUpperCase()} ${route}`),
    );
    const routes = routerRoutes(app);
    expect(routes.length).toBeGreaterThan(50);
    expect(routes.filter((route) => !documented.has(route))).toEqual([]);
    for (const route of [
      'POST /v1/chat/completions',
      'GET /v1/tools',
      'POST /api/agent-retrieval/v1/mcp',
      'GET /health/ready',
      'GET /metrics',
    ]) {
      expect(documented).toContain(route);
    }
  });

  it('requires Bearer on every public operation, nothing on private and open ones (private: account headers)', () => {
    for (const { method, path: route, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${route}`;
      if (route.startsWith(PRIVATE)) {
        expect([where, operation.security]).toEqual([where, []]);
        expect([where, operation.parameters?.find((entry) => entry.name === 'x-account-id')?.required]).toEqual([
          where,
          true,
        ]);
      } else if (OPEN.test(route)) {
        expect([where, operation.security]).toEqual([where, []]);
      } else {
        expect([where, operation.security]).toEqual([where, [{ bearer: [] }]]);
      }
    }
    expect((document.components as { securitySchemes: Json }).securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('gives every operation a success schema, an error body per status and an example that fits its schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ components: document.components }, 'doc');
    const fits = (schema: Json, value: unknown): string => {
      const text = JSON.stringify(schema).replace(/"#\/components\//g, '"doc#/components/');
      const validate = ajv.compile(JSON.parse(text) as Json);
      return validate(value) ? 'fits' : ajv.errorsText(validate.errors);
    };
    for (const { method, path: route, operation } of operations(document)) {
      const where = `${method.toUpperCase()} ${route}`;
      const [status, success] = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))!;
      const content = (success.content ?? {}) as Record<string, Json>;
      const media = Object.values(content)[0];
      // Ending an MCP session answers without a body: the one success with nothing to describe.
      const bodiless = method === 'delete' && route.endsWith('/mcp');
      if (!bodiless) expect([where, status, media?.schema !== undefined]).toEqual([where, status, true]);
      const errors = Object.entries(operation.responses).filter(([code]) => /^[45]/.test(code));
      if (!OPEN.test(route)) expect([where, errors.length > 3]).toEqual([where, true]);
      for (const [code, error] of errors) {
        const schema = ((error.content as Record<string, Json>)['application/json'].schema as Json).$ref;
        expect([where, code, schema]).toEqual([where, code, expect.stringMatching(/ErrorBodyDto|OpenAiError/)]);
      }
      const body = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.[
        'application/json'
      ];
      const example =
        (body?.examples as Record<string, Json> | undefined)?.demo ??
        (media?.examples as Record<string, Json> | undefined)?.demo;
      // Only the MCP session header stands in for an example (its GET and DELETE carry neither body nor JSON).
      const parameterExample = operation.parameters?.some(
        (entry) => entry.name === 'Mcp-Session-Id' && entry.example !== undefined,
      );
      expect([where, example !== undefined || parameterExample]).toEqual([where, true]);
      if (!example) continue;
      const schema = (body?.examples ? body.schema : media.schema) as Json;
      if (Object.keys(content)[0] === 'text/plain') continue;
      expect([where, fits(resolve(document, schema), example.value)]).toEqual([where, 'fits']);
    }
  });
});

describe('OpenAPI documents of separate listeners (e2e)', () => {
  it('documents private routes only on the private listener, public ones only on the public', async () => {
    const app = await startTestApp({
      AUTH_MODE: 'static',
      AUTH_STATIC_TOKENS: 'dev-secret=alice:user',
      PRIVATE_PORT: '0',
    });
    try {
      const paths = async (url: string) =>
        Object.keys((await request(url).get('/api/agent-retrieval/docs-json').expect(200)).body.paths as Json);
      const onPublic = await paths(app.url);
      const onPrivate = await paths(app.privateUrl);
      expect(onPublic.filter((route) => route.startsWith(PRIVATE))).toEqual([]);
      expect(onPublic).toContain('/v1/chat/completions');
      expect(onPrivate.length).toBeGreaterThan(10);
      expect(onPrivate.filter((route) => !route.startsWith(PRIVATE))).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
