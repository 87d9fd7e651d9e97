import { Logger } from '@nestjs/common';
import { realErrorPresenter } from '../../test/support/unit/i18n';
import { AppException } from '../common/errors/app.exception';
import { AuthErrors, PublicErrors } from '../common/errors/error-codes';
import { ErrorPresenter } from '../common/errors/error-presenter';
import { ErrorShapes } from '../common/errors/error-shapes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { ChatErrors, invalidChatRequest, modelError } from './chat.errors';
import { OPENAI_ERROR_SHAPE, OpenAiErrorShape } from './openai-error-shape';

describe('OpenAiErrorShape', () => {
  let presenter: ErrorPresenter;
  let shape: OpenAiErrorShape;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    presenter = await realErrorPresenter();
    shape = new OpenAiErrorShape(new ErrorShapes(), presenter);
  });

  const written = (error: unknown, language: 'en-US' | 'zh-Hans' = 'en-US') =>
    shape.write(presenter.present(error, language, 'request-1'), error);

  it('registers itself under the name the chat controller declares', () => {
    const shapes = new ErrorShapes();
    const registered = new OpenAiErrorShape(shapes, presenter);
    registered.onModuleInit();
    expect(shapes.writerFor(OPENAI_ERROR_SHAPE)).toBe(registered);
  });

  it('writes the seed code, its type and tool_name for a failed tool, the message translated', () => {
    const failure = new AppException(
      ChatErrors.ToolFailed,
      new LocalizedDetails('chat.tool.failed', { tool_name: 'read_file', reason: 'file "a.txt" not found' }),
    );
    expect(written(failure)).toEqual({
      status: 422,
      headers: {},
      body: {
        error: {
          message: 'Tool execution failed: read_file: file "a.txt" not found',
          type: 'tool_execution_error',
          code: 'tool_failed',
          tool_name: 'read_file',
        },
      },
    });
    expect(written(failure, 'zh-Hans').body).toEqual({
      error: {
        message: '工具执行失败: read_file：file "a.txt" not found',
        type: 'tool_execution_error',
        code: 'tool_failed',
        tool_name: 'read_file',
      },
    });
  });

  it.each([
    ['ToolNotFound', 404, 'invalid_request_error', 'tool_not_found'],
    ['SessionForbidden', 403, 'permission_error', 'session_forbidden'],
    ['ModelUnavailable', 503, 'service_unavailable', 'model_unavailable'],
    ['ModelUnreachable', 502, 'api_error', 'upstream_unavailable'],
    ['ModelFailed', 502, 'api_error', 'upstream_unavailable'],
    ['ModelTimeout', 504, 'api_error', 'upstream_timeout'],
  ] as const)('writes ChatErrors.%s as %i %s %s', (name, status, type, code) => {
    const error = new AppException(ChatErrors[name], 'why');
    expect(written(error)).toEqual({
      status,
      headers: {},
      body: { error: { message: expect.stringMatching(/: why$/), type, code } },
    });
  });

  it('names the field at fault as param, and leaves param out when there is none', () => {
    expect(written(invalidChatRequest('notString', { param: 'model' })).body).toEqual({
      error: {
        message: 'The chat request is invalid: model must be a string',
        type: 'invalid_request_error',
        code: 'invalid_request',
        param: 'model',
      },
    });
    expect(written(invalidChatRequest('bodyNotObject')).body).toEqual({
      error: {
        message: 'The chat request is invalid: the body must be a JSON object',
        type: 'invalid_request_error',
        code: 'invalid_request',
      },
    });
  });

  it('passes the model endpoint’s own status, type, code and param through', () => {
    const rejected = modelError({ ...ChatErrors.ModelRejected, status: 429 }, 'rejected', {
      status: 429,
      message: 'slow down',
      type: 'rate_limit_error',
      code: 'rate_limited',
    });
    expect(written(rejected)).toMatchObject({
      status: 429,
      body: {
        error: {
          message: 'The language model endpoint refused the request: the model endpoint answered HTTP 429: slow down',
          type: 'rate_limit_error',
          code: 'rate_limited',
        },
      },
    });
  });

  it('keeps any other code and status, its type following the status, and passes the headers on', () => {
    const missing = new AppException(AuthErrors.TokenMissing, 'token is missing', {
      headers: { 'WWW-Authenticate': 'Bearer realm="agent-retrieval"' },
    });
    expect(written(missing)).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="agent-retrieval"' },
      body: {
        error: {
          message: 'No access token was sent: token is missing',
          type: 'authentication_error',
          code: 'agentRetrieval.Unauthorized.TokenMissing',
        },
      },
    });
    expect(written(new AppException(PublicErrors.PayloadTooLarge, 'too big')).body).toEqual({
      error: {
        message: 'Request body too large: too big',
        type: 'invalid_request_error',
        code: 'Public.PayloadTooLarge',
      },
    });
  });

  it('answers an unexpected error with a generic 500 and nothing of the error', () => {
    const { status, body } = written(new Error('secret internals'));
    expect(status).toBe(500);
    expect(body).toEqual({
      error: { message: 'Internal server error', type: 'api_error', code: 'Public.InternalServerError' },
    });
  });
});
