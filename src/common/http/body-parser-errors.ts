import type { NextFunction, Request, Response } from 'express';
import { Language } from '../../config/i18n.config';
import { currentRequestContext } from '../context/request-context';
import { ErrorPresenter } from '../errors/error-presenter';
import { languageFromHeaders } from '../i18n/language';

/**
 * Express error middleware placed right after the body parsers: answers malformed JSON, oversized
 * bodies and bad charsets with our error body before Nest re-labels them as a plain 400.
 */
export function bodyParserErrorHandler(presenter: ErrorPresenter, defaultLanguage: Language) {
  return (error: unknown, request: Request, response: Response, next: NextFunction): void => {
    const type = (error as { type?: unknown })?.type;
    if (typeof type !== 'string' || (!type.startsWith('entity.') && !type.endsWith('.unsupported'))) {
      return next(error);
    }
    const language = currentRequestContext()?.language ?? languageFromHeaders(request.headers, defaultLanguage);
    const presented = presenter.present(error, language, (request as Request & { id?: string }).id);
    response.status(presented.status).json(presented.body);
  };
}
