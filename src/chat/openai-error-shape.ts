import { Injectable, OnModuleInit } from '@nestjs/common';
import { requestContextOf } from '../common/context/request-context';
import { AppException } from '../common/errors/app.exception';
import { ErrorPresenter, PresentedError } from '../common/errors/error-presenter';
import { ErrorShapeWriter, ErrorShapes, errorMessage, ShapedError } from '../common/errors/error-shapes';
import { LocalizedDetails } from '../common/errors/localized-details';
import { OPENAI_ERROR_CODES } from './chat.errors';

/** The name the chat controller declares with `@ErrorShape`. */
export const OPENAI_ERROR_SHAPE = 'openai';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  429: 'rate_limit_error',
};

/**
 * The OpenAI-compatible door's errors as `{error: {message, type, code, …}}` with the real status (seed
 * 004, SPEC §10). The message is the translated description and details; the chat codes become the
 * seed's (`tool_not_found`, `tool_failed` with `tool_name`, …, see OPENAI_ERROR_CODES); any other code
 * is kept (e.g. `agentRetrieval.Unauthorized.TokenMissing`), its type following the status, and the
 * headers (WWW-Authenticate, Retry-After) pass on.
 */
@Injectable()
export class OpenAiErrorShape implements ErrorShapeWriter, OnModuleInit {
  constructor(
    private readonly shapes: ErrorShapes,
    private readonly presenter: ErrorPresenter,
  ) {}

  onModuleInit(): void {
    this.shapes.register(OPENAI_ERROR_SHAPE, this);
  }

  write(presented: PresentedError, error: unknown): ShapedError {
    const { status, headers, body } = presented;
    const known = OPENAI_ERROR_CODES.get(body.code);
    const written: Record<string, unknown> = {
      message: errorMessage(body),
      type: known?.type ?? TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
      code: known?.code ?? body.code,
    };
    const args = error instanceof AppException && error.details instanceof LocalizedDetails ? error.details.args : {};
    for (const field of known?.fields ?? []) {
      if (args[field] !== undefined && args[field] !== '') written[field] = args[field];
    }
    return { status, headers, body: { error: written } };
  }

  /** For an error the filter never sees: one that ends a chat stream already under way (`request`: the chat's). */
  present(error: unknown, request: object): ShapedError {
    const context = requestContextOf(request);
    return this.write(this.presenter.present(error, context?.language, context?.requestId), error);
  }
}
