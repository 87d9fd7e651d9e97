/**
 * An error of the chat routes, answered in the OpenAI shape `{error: {message, type, code, ...}}`
 * (seed 004 §错误处理) rather than this service's own error body: OpenAI clients parse this one.
 */
export class ChatError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    /** Extra fields of the error object (e.g. `tool_name`, `param`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ChatError';
  }

  body(): { error: Record<string, unknown> } {
    return { error: { message: this.message, type: this.type, code: this.code, ...this.extra } };
  }
}

export const chatErrors = {
  modelUnavailable: (message: string) => new ChatError(503, 'service_unavailable', 'model_unavailable', message),
  invalidRequest: (message: string, param?: string) =>
    new ChatError(400, 'invalid_request_error', 'invalid_request', message, param ? { param } : {}),
  toolNotFound: (name: string) =>
    new ChatError(404, 'invalid_request_error', 'tool_not_found', `Tool '${name}' not found`),
  toolFailed: (name: string, message: string) =>
    new ChatError(422, 'tool_execution_error', 'tool_failed', `Tool execution failed: ${message}`, { tool_name: name }),
  forbidden: (message: string, code = 'permission_denied') => new ChatError(403, 'permission_error', code, message),
  upstreamUnavailable: (message: string) => new ChatError(502, 'api_error', 'upstream_unavailable', message),
  upstreamTimeout: (message: string) => new ChatError(504, 'api_error', 'upstream_timeout', message),
};
