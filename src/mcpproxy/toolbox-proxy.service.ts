import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { OperatorErrors } from '../operators/operator.errors';
import { OperatorPort } from '../operators/operator.port';
import { LayeredArguments } from '../operators/operator.types';

const LOCATIONS = new Set(['header', 'path', 'query', 'body']);

/** What the toolbox proxy answers: the tool endpoint's own status, headers and body, wrapped (as AOI does). */
export interface ToolboxProxyResponse {
  status_code: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Layered `{header, path, query, body}` arguments; anything else is a clear 400. */
export function layeredArguments(body: unknown): LayeredArguments {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppException(
      OperatorErrors.InvalidToolArguments,
      'request body must be a JSON object {header, path, query, body}',
    );
  }
  const unknown = Object.keys(body).filter((key) => !LOCATIONS.has(key));
  if (unknown.length > 0) {
    throw new AppException(
      OperatorErrors.InvalidToolArguments,
      `unknown argument location ${JSON.stringify(unknown[0].slice(0, 64))}; use header, path, query or body`,
    );
  }
  return body as LayeredArguments;
}

/** Runs a toolbox tool (an OpenAPI operation) with layered arguments: the embedded-mode action api_url. */
@Injectable()
export class ToolboxProxyService {
  constructor(private readonly operators: OperatorPort) {}

  async execute(boxId: string, toolId: string, body: unknown): Promise<ToolboxProxyResponse> {
    const result = await this.operators.executeTool(boxId, toolId, layeredArguments(body));
    return { status_code: result.status, headers: result.headers, body: result.body };
  }
}
