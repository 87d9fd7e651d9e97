import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application, Request, Response } from 'express';
import { currentRequestContext } from '../context/request-context';
import { languageFromHeaders } from '../i18n/language';
import type { RequestWithId } from '../http/request-context.middleware';
import { allowedMethods } from '../http/route-table';
import { Language } from '../../config/i18n.config';
import { maskApiKeys } from '../auth/api-keys/api-key-format';
import { AppException } from './app.exception';
import { PublicErrors } from './error-codes';
import { ErrorPresenter } from './error-presenter';
import { chatErrorBody, isChatPath } from '../../chat/chat-error-body';

/**
 * The one exception filter: every HTTP error leaves as `{code, description, solution, link, details}`,
 * except on the OpenAI-compatible chat paths, which answer OpenAI's `{error: {message, type, code}}`.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  constructor(
    private readonly presenter: ErrorPresenter,
    private readonly adapterHost: HttpAdapterHost,
    private readonly defaultLanguage: Language,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const request = host.switchToHttp().getRequest<RequestWithId>();
    const response = host.switchToHttp().getResponse<Response>();
    const language = currentRequestContext()?.language ?? languageFromHeaders(request.headers, this.defaultLanguage);
    const presented = isChatPath(request.path)
      ? chatErrorBody(this.refineNotFound(exception, request), this.presenter, request)
      : this.presenter.present(this.refineNotFound(exception, request), language, request.id);
    if (response.headersSent) {
      this.logger.warn('error after headers were sent; closing the response');
      response.end();
      return;
    }
    response.status(presented.status);
    for (const [name, value] of Object.entries(presented.headers)) response.setHeader(name, value);
    response.json(presented.body);
  }

  /** Nest reports an unknown route as NotFoundException("Cannot METHOD /path"); a known path gets 405. */
  private refineNotFound(exception: unknown, request: Request): unknown {
    if (!(exception instanceof NotFoundException) || !exception.message.startsWith('Cannot ')) return exception;
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    const methods = allowedMethods(app, request.path);
    const target = `${request.method} ${maskApiKeys(request.path.slice(0, 200))}`;
    if (methods.length > 0 && !methods.includes(request.method)) {
      return new AppException(PublicErrors.MethodNotAllowed, `method not allowed: ${target}`, {
        headers: { Allow: methods.join(', ') },
      });
    }
    return new AppException(PublicErrors.NotFound, `no route for ${target}`);
  }
}
