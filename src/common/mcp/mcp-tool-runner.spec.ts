import { Logger } from '@nestjs/common';
import type { McpContext } from '@rekog/mcp-nest';
import { z } from 'zod';
import { AppException } from '../errors/app.exception';
import { ErrorDefinition, PublicErrors } from '../errors/error-codes';
import { ErrorPresenter } from '../errors/error-presenter';
import { KN_ID_REQUIRED } from '../http/kn-id';
import { decodeToon } from '../response-format/toon';
import { MetricsService } from '../../metrics/metrics.service';
import { KN_ID_META, McpToolRunner, ToolResult } from './mcp-tool-runner';
import { testConfig } from '../../../test/support/unit/config';

/** Presents AppExceptions by code and details; the translated texts are covered by the presenter's own tests. */
const presenter = {
  present: (error: unknown) => {
    const definition: ErrorDefinition =
      error instanceof AppException ? error.definition : PublicErrors.InternalServerError;
    const details = error instanceof AppException ? error.details : undefined;
    return { status: definition.status, body: { code: definition.code, details }, headers: {} };
  },
} as unknown as ErrorPresenter;

function context(headers: Record<string, string> = {}): McpContext {
  return { getRawRequest: () => ({ headers, id: 'request-1' }) } as unknown as McpContext;
}

const SCHEMA = z.looseObject({ query: z.string() });
const VALUE = { datas: [{ name: '张三', _instance_identity: { id: 1 } }] };

describe('McpToolRunner', () => {
  let metrics: MetricsService;
  let runner: McpToolRunner;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    const config = testConfig({ DEFAULT_LANGUAGE: 'zh-Hans' });
    metrics = new MetricsService(config.metrics);
    runner = new McpToolRunner(presenter, metrics, config.i18n, config.limits);
  });

  const text = (result: ToolResult): string => result.content[0].text;

  it('answers structuredContent plus a TOON text block by default, naming the network in _meta', async () => {
    const seen: string[] = [];
    const result = await runner.runForNetwork(
      { tool: 't', schema: SCHEMA, args: { query: 'q' }, context: context({ 'x-kn-id': 'clinic' }) },
      async (_input, knId) => {
        seen.push(knId);
        return VALUE;
      },
    );
    expect(seen).toEqual(['clinic']);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual(VALUE);
    expect(decodeToon(text(result))).toEqual(VALUE);
    expect(result._meta[KN_ID_META]).toBe('clinic');
  });

  it('switches the text to JSON with response_format=json; alwaysJson ignores even invalid values', async () => {
    const args = { query: 'q', response_format: 'json' };
    const json = await runner.runForNetwork(
      { tool: 't', schema: SCHEMA, args, context: context({ 'x-kn-id': 'k' }) },
      async () => VALUE,
    );
    expect(JSON.parse(text(json))).toEqual(VALUE);
    const strict = z.strictObject({ query: z.string(), kn_id: z.string().optional() });
    const always = await runner.runForNetwork(
      {
        tool: 't',
        schema: strict,
        args: { query: 'q', response_format: 'xml' },
        context: context({ 'x-kn-id': 'k' }),
        alwaysJson: true,
      },
      async () => VALUE,
    );
    expect(JSON.parse(text(always))).toEqual(VALUE);
  });

  it('the kn_id argument wins over the header; neither is the documented error result', async () => {
    const knIds: string[] = [];
    await runner.runForNetwork(
      { tool: 't', schema: SCHEMA, args: { query: 'q', kn_id: 'other' }, context: context({ 'x-kn-id': 'clinic' }) },
      async (_input, knId) => {
        knIds.push(knId);
        return VALUE;
      },
    );
    expect(knIds).toEqual(['other']);
    const missing = await runner.runForNetwork(
      { tool: 't', schema: SCHEMA, args: { query: 'q' }, context: context() },
      async () => VALUE,
    );
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain(KN_ID_REQUIRED);
  });

  it('turns synchronous and asynchronous failures into isError results and counts outcomes', async () => {
    const call = (execute: () => Promise<object>) =>
      runner.runForNetwork(
        { tool: 'boom', schema: SCHEMA, args: { query: 'q' }, context: context({ 'x-kn-id': 'k' }) },
        execute,
      );
    const sync = await call(() => {
      throw new AppException(PublicErrors.NotImplemented, 'later');
    });
    expect(JSON.parse(text(sync))).toEqual({ code: 'Public.NotImplemented', details: 'later' });
    const async = await call(() => Promise.reject(new Error('secret internals')));
    expect(text(async)).not.toContain('secret internals');
    await call(async () => VALUE);
    const exposition = await metrics.registry.metrics();
    expect(exposition).toContain('mcp_tool_calls_total{tool="boom",outcome="error"} 2');
    expect(exposition).toContain('mcp_tool_calls_total{tool="boom",outcome="ok"} 1');
    expect(exposition).toContain('mcp_tool_duration_seconds_count{tool="boom",outcome="ok"} 1');
  });

  it('runs tools that need no network without asking for kn_id', async () => {
    const result = await runner.runWithoutNetwork(
      { tool: 'code', schema: SCHEMA, args: { query: 'q' }, context: context() },
      async () => VALUE,
    );
    expect(result.isError).toBeUndefined();
    expect(result._meta[KN_ID_META]).toBeUndefined();
  });
});
