import { Get, HttpCode, Inject, Injectable, Post, Req, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthenticatedRequest } from '../common/auth/auth.guard';
import { isRecord } from '../common/http/json-inspection';
import { ApiController, PrivateController, PublicController, withPrivateTwins } from '../common/http/route-prefixes';
import { configToken, I18nConfig } from '../config';
import { requestScope } from './call-scope';
import { CapabilityDefinition, RestRoute } from './capability';
import { CapabilityCatalog } from './capability-catalog';
import { CapabilityGateway } from './capability-gateway';
import { advertisedInput, jsonSchemaOf } from './capability-input';

type SchemaObject = Extract<Parameters<typeof ApiBody>[0], { schema: unknown }>['schema'];

/** What a generated controller needs at run time. */
@Injectable()
export class RestDoor {
  constructor(
    readonly catalog: CapabilityCatalog,
    readonly gateway: CapabilityGateway,
    @Inject(configToken('i18n')) readonly i18n: I18nConfig,
  ) {}
}

/**
 * The REST twins of a feature's capabilities, generated from the catalog entries (SPEC §12): one route
 * per capability that declares one, its body validated by the capability's own schema through the
 * gateway (the same 400s as every other door), documented in OpenAPI from the same schema. Routes served
 * under both prefixes come with their private-prefix twin.
 */
export function capabilityControllers(tag: string, definitions: readonly CapabilityDefinition[]): Type[] {
  const controllers: Type[] = [];
  for (const prefixes of ['both', 'public', 'private'] as const) {
    const served = definitions.filter(
      (definition) => definition.rest && (definition.rest.prefixes ?? 'both') === prefixes,
    );
    if (served.length === 0) continue;
    const controller = restController(`${pascal(tag)}${pascal(prefixes)}CapabilitiesController`, served);
    ApiTags(tag)(controller);
    if (prefixes === 'both') {
      ApiController('')(controller);
      controllers.push(...withPrivateTwins(controller));
    } else {
      (prefixes === 'public' ? PublicController('') : PrivateController(''))(controller);
      controllers.push(controller);
    }
  }
  return controllers;
}

function restController(name: string, definitions: readonly CapabilityDefinition[]): Type {
  const controller = class {
    constructor(readonly door: RestDoor) {}
  };
  Object.defineProperty(controller, 'name', { value: name });
  Inject(RestDoor)(controller, undefined, 0);
  for (const definition of definitions) route(controller, definition, definition.rest!);
  return controller;
}

function route(controller: Type, definition: CapabilityDefinition, rest: RestRoute): void {
  const key = definition.name;
  async function handle(this: { door: RestDoor }, request: AuthenticatedRequest): Promise<unknown> {
    const capability = this.door.catalog.get(definition.name)!;
    const scope = { ...requestScope('rest', request, this.door.i18n.defaultLanguage), query: request.query };
    return (await this.door.gateway.call(capability, restInput(rest, request), scope)).value;
  }
  Object.defineProperty(handle, 'name', { value: key });
  Object.defineProperty(controller.prototype, key, { value: handle, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(controller.prototype, key)!;
  const decorate = (decorator: MethodDecorator): void => void decorator(controller.prototype, key, descriptor);
  Req()(controller.prototype, key, 0);
  Reflect.defineMetadata('design:paramtypes', [Object], controller.prototype, key);
  decorate(rest.method === 'GET' ? Get(rest.path) : Post(rest.path));
  if (rest.method === 'POST') decorate(HttpCode(rest.status ?? 200));
  decorate(ApiOperation({ summary: definition.title['en-US'], description: definition.description['en-US'] }));
  decorate(ApiOkResponse({ schema: openApiSchema(jsonSchemaOf(definition.output, 'output')) }));
  if (rest.method === 'POST') decorate(ApiBody({ schema: openApiSchema(advertisedInput(definition)) }));
  for (const [field, kind] of Object.entries(rest.query ?? {})) {
    decorate(
      ApiQuery({
        name: field,
        required: false,
        type: kind === 'boolean' ? Boolean : kind === 'integer' ? Number : String,
      }),
    );
  }
  const parameters = pathParameters(rest.path);
  for (const name of parameters) decorate(ApiParam({ name, required: true, type: String }));
  if (definition.network === 'required' && !parameters.includes('kn_id')) {
    decorate(ApiQuery({ name: 'kn_id', required: false, description: 'Knowledge network id when the body has none' }));
    decorate(
      ApiHeader({
        name: 'X-Kn-ID',
        required: false,
        description: 'Knowledge network id when neither body nor query has one',
      }),
    );
  }
  for (const header of rest.headers ?? []) {
    decorate(ApiHeader({ name: header.name, required: false, description: header.description }));
  }
}

/** The `:name` segments of a route path. */
function pathParameters(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/**
 * The capability's input from a REST request: the body (a GET has none), with the path's parameters
 * (they win: the URL names what the call is about) and the fields the route also reads from the query
 * string filled in where the body leaves them out.
 */
function restInput(rest: RestRoute, request: Request): unknown {
  const body: unknown = request.body ?? {};
  const parameters = pathParameters(rest.path);
  if ((!rest.query && parameters.length === 0) || !isRecord(body)) return body;
  const input: Record<string, unknown> = { ...body };
  for (const name of parameters) {
    const value: unknown = request.params[name];
    if (typeof value === 'string') input[name] = value;
  }
  const query = request.query as Record<string, unknown>;
  for (const [field, kind] of Object.entries(rest.query ?? {})) {
    const text = query[field];
    if (typeof text !== 'string' || !absent(input[field])) continue;
    input[field] = queryValue(kind, text);
  }
  return input;
}

/** A query value as its kind reads it; text that is not of that kind stays text, for the schema to refuse. */
function queryValue(kind: 'string' | 'boolean' | 'integer', text: string): unknown {
  if (kind === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (kind === 'integer' && /^-?\d{1,15}$/.test(text)) return Number(text);
  return text;
}

const absent = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

function openApiSchema(schema: Record<string, unknown>): SchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest as SchemaObject;
}

function pascal(text: string): string {
  return text.replace(/(^|[^a-zA-Z0-9]+)([a-zA-Z0-9])/g, (_match, _sep: string, letter: string) =>
    letter.toUpperCase(),
  );
}
