import { specificError } from '../common/errors/error-codes';

/** Errors raised by the operator adapters and the proxy routes in front of them. */
export const OperatorErrors = {
  McpServerNotFound: specificError('NotFound', 'MCPServerNotFound', 404),
  McpToolNotFound: specificError('NotFound', 'MCPToolNotFound', 404),
  ToolboxToolNotFound: specificError('NotFound', 'ToolboxToolNotFound', 404),
  InvalidToolArguments: specificError('BadRequest', 'InvalidToolArguments', 400),
  ToolHostNotAllowed: specificError('Forbidden', 'ToolHostNotAllowed', 403),
  InvalidOperatorDefinition: specificError('InternalServerError', 'InvalidOperatorDefinition', 500),
} as const;
