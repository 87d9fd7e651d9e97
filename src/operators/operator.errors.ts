import { ErrorDefinition } from '../common/errors/error-codes';

const specific = (name: string, reason: string, status: number): ErrorDefinition => ({
  code: `agentRetrieval.${name}.${reason}`,
  status,
  key: reason,
});

/** Errors raised by the operator adapters and the proxy routes in front of them. */
export const OperatorErrors = {
  McpServerNotFound: specific('NotFound', 'MCPServerNotFound', 404),
  McpToolNotFound: specific('NotFound', 'MCPToolNotFound', 404),
  ToolboxToolNotFound: specific('NotFound', 'ToolboxToolNotFound', 404),
  InvalidToolArguments: specific('BadRequest', 'InvalidToolArguments', 400),
  ToolHostNotAllowed: specific('Forbidden', 'ToolHostNotAllowed', 403),
  InvalidOperatorDefinition: specific('InternalServerError', 'InvalidOperatorDefinition', 500),
} as const;
