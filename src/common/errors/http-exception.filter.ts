import { ArgumentsHost, Catch, ExceptionFilter, Logger, NotFoundException } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Application, Request, Response } from 'express';
import { requestContextOf } from '../context/request-context';
import { languageFromHeaders } from '../i18n/language';
import type { RequestWithId } from '../http/request-context.middleware';
import { allowedMethods } from '../http/route-table';
import { Language } from '../../config/i18n.config';
import { maskApiKeys } from '../auth/api-keys/api-key-format';
import { AppException } from './app.exception';
import { PublicErrors } from './error-codes';
import { ErrorPresenter } from './error-presenter';
import { LocalizedDetails } from './localized-details';
import { declaredErrorShape } from './error-shape';
import { ErrorShapes } from './error-shapes';

/**
 * The one exception filter: every HTTP error leaves as `{code, description, solution, link, details}`,
 * or in the shape the matched controller declares (`@ErrorShape`), written by the feature that
 * registered it. Errors before routing and on unmatched routes have no declaration: the default body.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  constructor(
    private readonly presenter: ErrorPresenter,
    private readonly shapes: ErrorShapes,
    private readonly adapterHost: HttpAdapterHost,
    private readonly defaultLanguage: Language,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const request = host.switchToHttp().getRequest<RequestWithId>();
    const response = host.switchToHttp().getResponse<Response>();
    const language = requestContextOf(request)?.language ?? languageFromHeaders(request.headers, this.defaultLanguage);
    const error = this.refineNotFound(exception, request);
    const presented = this.presenter.present(error, language, request.id);
    const writer = this.shapes.writerFor(declaredErrorShape(request));
    const answer = writer ? writer.write(presented, error) : presented;
    if (response.headersSent) {
      this.logger.warn('error after headers were sent; closing the response');
      response.end();
      return;
    }
    response.status(answer.status);
    if (presented.language) response.setHeader('Content-Language', presented.language);
    for (const [name, value] of Object.entries(answer.headers)) response.setHeader(name, value);
    response.json(answer.body);
  }

  /** Nest reports an unknown route as NotFoundException("Cannot METHOD /path"); a known path gets 405. */
  private refineNotFound(exception: unknown, request: Request): unknown {
    if (!(exception instanceof NotFoundException) || !exception.message.startsWith('Cannot ')) return exception;
    const app = this.adapterHost.httpAdapter.getInstance<Application>();
    const methods = allowedMethods(app, request.path);
    const target = `${request.method} ${maskApiKeys(request.path.slice(0, 200))}`;
    if (methods.length > 0 && !methods.includes(request.method)) {
      return new AppException(
        PublicErrors.MethodNotAllowed,
        new LocalizedDetails('http.methodNotAllowed', { target }),
        {
          headers: { Allow: methods.join(', ') },
        },
      );
    }
    return new AppException(PublicErrors.NotFound, new LocalizedDetails('http.noRoute', { target }));
  }
}
