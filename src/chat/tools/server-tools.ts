import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { MCP_TOOL_METADATA_KEY, McpContext } from '@rekog/mcp-nest';
import { z } from 'zod';
import type { AuthenticatedRequest } from '../../common/auth/auth.guard';
import type { ToolResult } from '../../common/mcp/mcp-tool-runner';
import { FunctionTool } from '../chat.types';

interface ToolMetadata {
  name: string;
  description?: string;
  parameters?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

/** One of this service's own MCP tools, callable in-process with the chat request as its connection. */
export interface ServerTool {
  definition: FunctionTool;
  readOnly: boolean;
  call(args: Record<string, unknown>, request: AuthenticatedRequest): Promise<ToolResult>;
}

/**
 * This service's own tools for the chat loop, found where the MCP server finds them (every
 * `@McpController` method with `@Tool` metadata): one definition of each tool serves MCP, REST's
 * twins and chat. A call goes through the tool's own method, so validation, error bodies, metrics and
 * logs are the MCP tool's.
 */
@Injectable()
export class ServerTools implements OnApplicationBootstrap {
  private tools = new Map<string, ServerTool>();

  constructor(private readonly discovery: DiscoveryService) {}

  onApplicationBootstrap(): void {
    const found = new Map<string, ServerTool>();
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const method = prototype[key];
        if (key === 'constructor' || typeof method !== 'function') continue;
        const metadata = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, method) as ToolMetadata | undefined;
        if (!metadata?.name) continue;
        found.set(metadata.name, {
          definition: {
            type: 'function',
            function: {
              name: metadata.name,
              description: metadata.description,
              parameters: inputSchema(metadata.parameters),
            },
          },
          readOnly: metadata.annotations?.readOnlyHint === true,
          call: (args, request) => (method as ToolMethod).call(instance, args, contextFor(request)),
        });
      }
    }
    this.tools = new Map([...found].sort(([a], [b]) => a.localeCompare(b)));
  }

  list(): ServerTool[] {
    return [...this.tools.values()];
  }

  get(name: string): ServerTool | undefined {
    return this.tools.get(name);
  }
}

type ToolMethod = (args: unknown, context: McpContext) => Promise<ToolResult>;

/** The context a tool method reads: only the raw request (headers, account, request id). */
function contextFor(request: AuthenticatedRequest): McpContext {
  return { getRawRequest: () => request } as unknown as McpContext;
}

/** The tool's advertised JSON Schema (Standard Schema with JSON Schema, a Zod schema, or raw JSON Schema). */
function inputSchema(parameters: unknown): Record<string, unknown> {
  const standard = (parameters as { '~standard'?: { jsonSchema?: { input?: (options: object) => unknown } } })?.[
    '~standard'
  ];
  let schema: unknown;
  if (standard?.jsonSchema?.input) schema = standard.jsonSchema.input({ target: 'draft-2020-12' });
  else if (parameters instanceof z.ZodType) schema = z.toJSONSchema(parameters, { io: 'input' });
  else if (parameters && typeof parameters === 'object') schema = parameters;
  const { $schema: _ignored, ...rest } = (schema ?? { type: 'object', properties: {} }) as Record<string, unknown>;
  return rest;
}
