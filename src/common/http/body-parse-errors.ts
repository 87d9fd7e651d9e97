import type { NextFunction, Request, Response } from 'express';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';

interface BodyParserError {
  type?: string;
  body?: unknown;
}

function describeBody(raw: unknown): string {
  if (typeof raw !== 'string') return 'request body is not valid JSON';
  try {
    const value: unknown = JSON.parse(raw);
    return `request body must be a JSON object or array, not a ${value === null ? 'null' : typeof value}`;
  } catch {
    return 'request body is not valid JSON';
  }
}

/**
 * Express error middleware placed right after the JSON parser. Nest would otherwise turn the parser's
 * SyntaxError into a bare BadRequestException carrying the raw parser message; this makes it our
 * InvalidJson error, and says so when the body was JSON but a scalar (strict parsing accepts only
 * objects and arrays).
 */
export function bodyParseErrors(error: unknown, _request: Request, _response: Response, next: NextFunction): void {
  const parserError = error as BodyParserError;
  if (parserError?.type !== 'entity.parse.failed') return next(error);
  next(new AppException(ValidationErrors.InvalidJson, describeBody(parserError.body)));
}
