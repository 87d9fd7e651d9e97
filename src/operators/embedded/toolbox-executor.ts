import { Logger } from '@nestjs/common';
import { AppException } from '../../common/errors/app.exception';
import { fetchFailureException } from '../../common/http/fetch-failure';
import { fetchWithin, OutboundResponse } from '../../common/http/outbound-fetch';
import { pathSegment, upstreamUrl } from '../../common/http/upstream-url';
import { OperatorErrors } from '../operator.errors';
import { LayeredArguments, ToolExecutionResult } from '../operator.types';
import { ToolboxOperation } from './toolbox-registry';

export interface ToolboxExecutorOptions {
  allowedHosts: string[];
  timeoutMs: number;
}

type Scalar = string | number | boolean;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Headers that describe the connection or the body we build: a caller must not set them.
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);
const RESPONSE_HEADERS_DROPPED = new Set(['set-cookie', 'connection', 'keep-alive', 'transfer-encoding']);
/** The layered body property that carries a non-object body whole (see layered-tool-schema). */
const WHOLE_BODY_PROPERTY = 'request_body';

const badArguments = (details: string): AppException => new AppException(OperatorErrors.InvalidToolArguments, details);

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function section(args: LayeredArguments, name: 'header' | 'path' | 'query'): Record<string, unknown> {
  const value = args[name];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw badArguments(`${name} must be a JSON object`);
  return value;
}

/** Sends the HTTP request a toolbox operation describes, only to allow-listed hosts and with a deadline. */
export class ToolboxExecutor {
  private readonly logger = new Logger('ToolboxExecutor');

  constructor(private readonly options: ToolboxExecutorOptions) {}

  async execute(operation: ToolboxOperation, args: LayeredArguments): Promise<ToolExecutionResult> {
    const url = this.url(operation, args);
    const headers = this.headers(args);
    const body = this.body(operation, args);
    if (body !== undefined) headers['content-type'] = 'application/json';
    // The body is read under the same deadline: one cut short (a reset, the deadline) is a failed call
    // (502/504), never the tool's status with an empty body.
    try {
      const init = { method: operation.method.toUpperCase(), headers, body, redirect: 'manual' } as const;
      return await fetchWithin(url, init, this.options.timeoutMs, async (response) => {
        const text = await response.text();
        return { status: response.status, headers: responseHeaders(response), body: parseResponseBody(response, text) };
      });
    } catch (error) {
      const subject = `tool ${operation.boxId}/${operation.toolId}`;
      throw fetchFailureException(error, { subject, timeoutMs: this.options.timeoutMs, logger: this.logger });
    }
  }

  private url(operation: ToolboxOperation, args: LayeredArguments): URL {
    if (!operation.serverUrl) {
      throw new AppException(
        OperatorErrors.InvalidOperatorDefinition,
        `toolbox ${operation.boxId} declares no servers[0].url`,
      );
    }
    const pathValues = section(args, 'path');
    const pathname = operation.pathTemplate.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
      const value = Object.prototype.hasOwnProperty.call(pathValues, name) ? pathValues[name] : undefined;
      if (!isScalar(value) || String(value) === '') throw badArguments(`path parameter "${name}" is required`);
      return pathSegment(`path parameter "${name}"`, String(value));
    });
    let url: URL;
    try {
      url = upstreamUrl(operation.serverUrl, pathname, `toolbox ${operation.boxId}`);
    } catch (error) {
      if (error instanceof AppException) throw error;
      throw new AppException(
        OperatorErrors.InvalidOperatorDefinition,
        `toolbox ${operation.boxId} has an invalid server URL`,
      );
    }
    const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    const allowed = this.options.allowedHosts.some((entry) => entry.replace(/^\[(.*)\]$/, '$1') === host);
    if (!allowed || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new AppException(OperatorErrors.ToolHostNotAllowed, `host ${url.hostname} is not in TOOLBOX_ALLOWED_HOSTS`);
    }
    for (const [name, value] of Object.entries(section(args, 'query'))) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        url.searchParams.append(name, isScalar(item) ? String(item) : JSON.stringify(item));
      }
    }
    return url;
  }

  private headers(args: LayeredArguments): Record<string, string> {
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [name, value] of Object.entries(section(args, 'header'))) {
      if (value === undefined || value === null) continue;
      if (!HEADER_NAME.test(name)) throw badArguments(`header name ${JSON.stringify(name.slice(0, 64))} is not valid`);
      if (!isScalar(value) || /[\r\n\0]/.test(String(value)))
        throw badArguments(`header "${name}" must be a single-line value`);
      if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('proxy-')) continue;
      headers[name.toLowerCase()] = String(value);
    }
    return headers;
  }

  private body(operation: ToolboxOperation, args: LayeredArguments): string | undefined {
    if (operation.method === 'get' || operation.method === 'head') return undefined;
    let body = args.body;
    if (body === undefined || body === null) return operation.detail.api_spec.request_body ? '{}' : undefined;
    const keys = typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    if (keys.length === 1 && keys[0] === WHOLE_BODY_PROPERTY)
      body = (body as Record<string, unknown>)[WHOLE_BODY_PROPERTY];
    return JSON.stringify(body);
  }
}

function responseHeaders(response: OutboundResponse): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!RESPONSE_HEADERS_DROPPED.has(name)) headers[name] = value;
  });
  return headers;
}

function parseResponseBody(response: OutboundResponse, text: string): unknown {
  if (text === '') return null;
  if (/json/i.test(response.headers.get('content-type') ?? '')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
