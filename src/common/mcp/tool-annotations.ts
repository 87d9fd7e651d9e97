import type { ToolAnnotations } from '@rekog/mcp-nest';

/**
 * A tool that only reads data this service owns or indexes (a knowledge network, the code index):
 * calling it twice changes nothing and it reaches no open world.
 */
export function readOnlyTool(title: string): ToolAnnotations {
  return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
}

/**
 * A tool that changes the world outside this service (it runs an action's tool, which may create,
 * modify or delete): not read-only, possibly destructive, not idempotent, open world.
 */
export function destructiveTool(title: string): ToolAnnotations {
  return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
}
