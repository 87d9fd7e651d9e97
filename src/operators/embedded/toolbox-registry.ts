import { Logger } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ToolApiSpec, ToolDetail } from '../operator.types';
import { OPERATOR_ID } from './mcp-server-definition';
import { filesIn } from './network-folders';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
export type HttpMethod = (typeof METHODS)[number];

type Json = Record<string, unknown>;

/** One OpenAPI operation of a toolbox file, ready to describe and to execute. */
export interface ToolboxOperation {
  boxId: string;
  toolId: string;
  method: HttpMethod;
  /** Path template, e.g. `/appointments/{clinic_id}`. */
  pathTemplate: string;
  /** `servers[0].url` with its variables set to their defaults; undefined when the file has none. */
  serverUrl?: string;
  detail: ToolDetail;
}

const asJson = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};

/** Follows one local `#/components/<kind>/<Name>` reference (parameters and request bodies). */
function dereference(document: Json, value: unknown): Json {
  const node = asJson(value);
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref);
  if (!match) return node;
  const section = asJson(asJson(document.components)[match[1]]);
  return Object.prototype.hasOwnProperty.call(section, match[2]) ? asJson(section[match[2]]) : node;
}

function serverUrl(document: Json): string | undefined {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const first = asJson(servers[0]);
  if (typeof first.url !== 'string') return undefined;
  const variables = asJson(first.variables);
  return first.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const fallback = asJson(variables[name]).default;
    return typeof fallback === 'string' ? fallback : whole;
  });
}

/** Path-level parameters apply to every operation unless the operation redefines the same name+location. */
function mergedParameters(document: Json, pathItem: Json, operation: Json): Json[] {
  const byKey = new Map<string, Json>();
  for (const list of [pathItem.parameters, operation.parameters]) {
    for (const raw of Array.isArray(list) ? list : []) {
      const parameter = dereference(document, raw);
      if (typeof parameter.name === 'string' && typeof parameter.in === 'string') {
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
    }
  }
  return [...byKey.values()];
}

function apiSpec(
  document: Json,
  pathTemplate: string,
  method: HttpMethod,
  pathItem: Json,
  operation: Json,
): ToolApiSpec {
  const spec: ToolApiSpec = {
    summary: operation.summary,
    description: operation.description,
    server_url: serverUrl(document),
    path: pathTemplate,
    method: method.toUpperCase(),
    parameters: mergedParameters(document, pathItem, operation),
    components: { schemas: asJson(asJson(document.components).schemas) },
  };
  if (operation.requestBody !== undefined) {
    spec.request_body = dereference(document, operation.requestBody) as ToolApiSpec['request_body'];
  }
  return spec;
}

function operationsOf(boxId: string, document: Json): ToolboxOperation[] {
  const operations: ToolboxOperation[] = [];
  for (const [pathTemplate, rawItem] of Object.entries(asJson(document.paths))) {
    const pathItem = asJson(rawItem);
    for (const method of METHODS) {
      const operation = asJson(pathItem[method]);
      if (typeof operation.operationId !== 'string') continue;
      const summary = typeof operation.summary === 'string' ? operation.summary : '';
      const description = typeof operation.description === 'string' ? operation.description : summary;
      operations.push({
        boxId,
        toolId: operation.operationId,
        method,
        pathTemplate,
        serverUrl: serverUrl(document),
        detail: {
          name: operation.operationId,
          description,
          api_spec: apiSpec(document, pathTemplate, method, pathItem, operation),
        },
      });
    }
  }
  return operations;
}

/** Toolboxes are OpenAPI 3 files `toolboxes/<box_id>.yaml|yml|json` in the network folders; tool_id = operationId. */
export class ToolboxRegistry {
  private readonly logger = new Logger('ToolboxRegistry');
  private readonly operations = new Map<string, Map<string, ToolboxOperation>>();

  constructor(folders: string[]) {
    for (const folder of folders) {
      for (const file of filesIn(folder, 'toolboxes', ['.yaml', '.yml', '.json'])) this.load(file);
    }
  }

  get(boxId: string, toolId: string): ToolboxOperation | undefined {
    return this.operations.get(boxId)?.get(toolId);
  }

  boxIds(): string[] {
    return [...this.operations.keys()];
  }

  hasBox(boxId: string): boolean {
    return this.operations.has(boxId);
  }

  private load(file: string): void {
    const boxId = path.basename(file, path.extname(file));
    if (!OPERATOR_ID.test(boxId) || this.operations.has(boxId)) {
      this.logger.warn(`toolbox ${file} skipped: invalid or duplicate box id "${boxId}"`);
      return;
    }
    let document: Json;
    try {
      document = asJson(parse(readFileSync(file, 'utf8')));
    } catch (error) {
      this.logger.warn(`toolbox ${file} skipped: ${(error as Error).message.split('\n')[0]}`);
      return;
    }
    const tools = new Map(operationsOf(boxId, document).map((operation) => [operation.toolId, operation]));
    this.operations.set(boxId, tools);
    this.logger.log(`toolbox ${boxId}: ${tools.size} tool(s) from ${file}`);
  }
}
