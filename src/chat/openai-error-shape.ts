import { Injectable, OnModuleInit } from '@nestjs/common';
import { currentRequestContext } from '../common/context/request-context';
import { ErrorPresenter, PresentedError } from '../common/errors/error-presenter';
import { ErrorShapeWriter, ErrorShapes, errorMessage, ShapedError } from '../common/errors/error-shapes';
import { ChatError } from './chat-error';

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
 * The OpenAI-compatible door's errors as `{error: {message, type, code}}` with the real status (seed 004,
 * SPEC §10): a ChatError as built; anything else through the error presenter (translated, request id
 * logged, never internals), its code kept (e.g. `agentRetrieval.Unauthorized.TokenMissing`) and its
 * headers (WWW-Authenticate, Retry-After) passed on.
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
    if (error instanceof ChatError) return { status: error.status, headers: {}, body: error.body() };
    const { status, headers, body } = presented;
    const type = TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { status, headers, body: { error: { message: errorMessage(body), type, code: body.code } } };
  }

  /** For an error the filter never sees: one that ends a chat stream already under way. */
  present(error: unknown): ShapedError {
    const context = currentRequestContext();
    return this.write(this.presenter.present(error, context?.language, context?.requestId), error);
  }
}
