import { SetMetadata } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { LimitsConfig } from '../../config';
import { AppException } from '../errors/app.exception';
import { PublicErrors, ValidationErrors } from '../errors/error-codes';
import { LocalizedDetails } from '../errors/localized-details';
import { inspectJson, jsonProblemException, JsonProblem } from './json-inspection';

const UNPARSABLE_BODY = Symbol('agentRetrieval.unparsableBody');
const REFUSED_BODY = Symbol('agentRetrieval.refusedBody');
const ARGUMENT_PROBLEMS = Symbol('agentRetrieval.argumentProblems');

type InspectedRequest = Request & {
  [UNPARSABLE_BODY]?: string;
  [REFUSED_BODY]?: unknown;
  [ARGUMENT_PROBLEMS]?: readonly JsonProblem[];
};

interface BodyParserError {
  type?: string;
  body?: unknown;
}

function describeUnparsable(raw: unknown): string {
  if (typeof raw !== 'string') return 'request body is not valid JSON';
  try {
    const value: unknown = JSON.parse(raw);
    return `request body must be a JSON object or array, not a ${value === null ? 'null' : typeof value}`;
  } catch {
    return 'request body is not valid JSON';
  }
}

/**
 * Express error middleware right after the body parsers. A body that does not parse is remembered and
 * routing goes on, so the route that matched reports it in its own protocol (REST error body, JSON-RPC
 * parse error) after authentication — no URL test decides the shape. Any other parser error (413 for a
 * chunked body over the limit, 415) is deferred the same way and thrown by the body guard.
 */
export function deferBodyParseErrors(error: unknown, request: Request, _response: Response, next: NextFunction): void {
  const parserError = error as BodyParserError;
  // body-parser's errors all carry a `type`; anything else was raised before the parsers and goes on.
  if (typeof parserError?.type !== 'string') return next(error);
  if (parserError.type === 'entity.parse.failed') {
    (request as InspectedRequest)[UNPARSABLE_BODY] = describeUnparsable(parserError.body);
  } else {
    refuseBody(request, error);
  }
  request.body = undefined;
  next();
}

/**
 * Refuses a request's body before anything reads it (a Content-Length over the limit): the body
 * parsers skip it, and the body guard throws `error` once the route is known and the caller
 * authenticated, so the error answers in the matched route's shape.
 */
export function refuseBody(request: Request, error: unknown): void {
  (request as InspectedRequest)[REFUSED_BODY] = error;
}

/** The error a body was refused with before routing, or undefined. */
export function bodyRefusal(request: Request): unknown {
  return (request as InspectedRequest)[REFUSED_BODY];
}

/** The body parsers' `type` option: parse bodies of `mediaType`, unless the body was refused before them. */
export function parsedUnlessRefused(mediaType: string): (request: IncomingMessage) => boolean {
  return (request) => bodyRefusal(request as Request) === undefined && hasMediaType(request as Request, mediaType);
}

// A bare `type/subtype` in lower case: Express's type check would find exactly this media type in it.
const PLAIN_MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/;

/**
 * Whether the request's body is of `mediaType` (a plain `type/subtype`), as `request.is` decides. Every
 * request asks (both body parsers, the REST media-type check), and agents send a bare `application/json`:
 * that case is a string comparison; parameters, case and anything else go through `request.is`.
 */
export function hasMediaType(request: Request, mediaType: string): boolean {
  const header = request.headers['content-type'];
  if (header !== undefined && header.length <= 127 && PLAIN_MEDIA_TYPE.test(header)) return header === mediaType;
  return Boolean(request.is(mediaType));
}

/** Why the body did not parse, or undefined when it did (or there was none). */
export function unparsableBody(request: Request): string | undefined {
  return (request as InspectedRequest)[UNPARSABLE_BODY];
}

/**
 * Records that a body check inspected the request's tool arguments and what it found (possibly
 * nothing), so the step that reports argument errors in its own terms neither misses nor repeats it.
 */
export function recordArgumentInspection(request: Request, problems: readonly JsonProblem[]): void {
  (request as InspectedRequest)[ARGUMENT_PROBLEMS] = problems;
}

/** What the body check found in the tool arguments; undefined when it did not inspect them. */
export function argumentInspection(request: Request | undefined): readonly JsonProblem[] | undefined {
  return (request as InspectedRequest | undefined)?.[ARGUMENT_PROBLEMS];
}

/** Checks a request's body before any pipe, validator or handler walks it; throws to reject. */
export type BodyCheck = (request: Request, limits: LimitsConfig) => void;

export const BODY_CHECK = 'agentRetrieval:bodyCheck';

/** For a controller whose protocol reports bad bodies its own way (the MCP endpoint speaks JSON-RPC). */
export const CheckBodyWith = (check: BodyCheck): ClassDecorator => SetMetadata(BODY_CHECK, check);

const JSON_MEDIA_TYPE = 'application/json';

/**
 * A body sent as anything but JSON (curl's `-d` sends a form; some clients send none) is never parsed as
 * JSON, so the route would see no fields at all and blame the first required one: 415 naming the type.
 */
export function requireJsonMediaType(request: Request): void {
  if (!carriesBody(request) || hasMediaType(request, JSON_MEDIA_TYPE)) return;
  const received = request.headers['content-type']?.split(';')[0].trim().slice(0, 100) || '-';
  throw new AppException(
    PublicErrors.UnsupportedMediaType,
    new LocalizedDetails('validation.mediaType', { expected: JSON_MEDIA_TYPE, received }),
  );
}

/** A chunked body, or a Content-Length above 0: an empty body is no body, whatever its type says. */
function carriesBody(request: Request): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

/**
 * REST: a body not sent as JSON → 415; unparsable → 400 InvalidJson; too deep, too long or not valid
 * Unicode → 400 naming the field.
 */
export const checkJsonBody: BodyCheck = (request, limits) => {
  requireJsonMediaType(request);
  const unparsable = unparsableBody(request);
  if (unparsable !== undefined) throw new AppException(ValidationErrors.InvalidJson, unparsable);
  const problem = inspectJson(request.body, limits.json);
  if (problem) throw jsonProblemException(problem, limits.json);
};
