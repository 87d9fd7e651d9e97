import { Logger } from '@nestjs/common';
import type { Request } from 'express';
import { realErrorPresenter } from '../../test/support/unit/i18n';
import { testConfig } from '../../test/support/unit/config';
import { AppException } from '../common/errors/app.exception';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { ErrorShapes } from '../common/errors/error-shapes';
import { PublicErrors } from '../common/errors/error-codes';
import { deferBodyParseErrors } from '../common/http/request-body';
import { checkJsonRpcBody } from './json-rpc-body';
import { JSON_RPC_ERROR_SHAPE, JsonRpcErrorShape } from './json-rpc-error-shape';
import { JsonRpcErrors } from './json-rpc.errors';

const LIMITS = testConfig().limits;

function mcpRequest(body: unknown, overrides: Partial<Request> = {}): Request {
  return { originalUrl: '/api/agent-retrieval/v1/mcp', headers: { host: 'localhost' }, body, ...overrides } as Request;
}

/** What the body check throws for a request, or undefined when it passes. */
function refusalOf(request: Request): AppException | undefined {
  try {
    checkJsonRpcBody(request, LIMITS);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppException);
    return error as AppException;
  }
}

function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = [value];
  return value;
}

describe('the MCP endpoint’s body refusals in JSON-RPC’s shape', () => {
  let presenter: ErrorPresenter;
  const shape = new JsonRpcErrorShape(new ErrorShapes());

  beforeAll(async () => {
    Logger.overrideLogger(false);
    presenter = await realErrorPresenter();
  });

  const written = (error: unknown, language: 'en-US' | 'zh-Hans' = 'en-US') =>
    shape.write(presenter.present(error, language));

  it('registers itself under the name the MCP endpoint declares', () => {
    const shapes = new ErrorShapes();
    const registered = new JsonRpcErrorShape(shapes);
    registered.onModuleInit();
    expect(shapes.writerFor(JSON_RPC_ERROR_SHAPE)).toBe(registered);
  });

  it('answers a body that does not parse with -32700, translated', () => {
    const request = mcpRequest(undefined);
    deferBodyParseErrors({ type: 'entity.parse.failed', body: '{"jsonrpc":' }, request, {} as never, () => undefined);
    const refusal = refusalOf(request);
    expect(refusal?.definition).toBe(JsonRpcErrors.ParseError);
    expect(written(refusal)).toEqual({
      status: 400,
      headers: {},
      body: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not valid JSON' }, id: null },
    });
    expect(written(refusal, 'zh-Hans').body).toMatchObject({
      error: { code: -32700, message: '解析错误: 请求体不是合法的 JSON' },
    });
  });

  it('answers a path with a backslash and a message nested too deep with -32600, naming why', () => {
    const backslash = refusalOf(mcpRequest({ jsonrpc: '2.0' }, { originalUrl: '/api/agent-retrieval/v1/mcp\\x' }));
    expect(written(backslash).body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: the request path contains a backslash' },
      id: null,
    });
    const deep = refusalOf(mcpRequest({ jsonrpc: '2.0', method: 'tools/list', params: { _meta: nested(200) } }));
    expect(written(deep).body).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: Parameter params must not be nested deeper than 64 levels' },
      id: null,
    });
  });

  it('leaves every other error of the endpoint in the standard body', () => {
    const tooLarge = new AppException(PublicErrors.PayloadTooLarge, 'too big');
    expect(written(tooLarge)).toEqual(presenter.present(tooLarge, 'en-US'));
  });
});
