import { specificError } from '../common/errors/error-codes';

/**
 * A message the MCP endpoint refuses before the transport sees it; the endpoint's error shape answers it
 * as a JSON-RPC error (-32700, -32600). Details texts are in `i18n/<lang>/mcp.json`.
 */
export const JsonRpcErrors = {
  ParseError: specificError('BadRequest', 'JsonRpcParseError', 400),
  InvalidRequest: specificError('BadRequest', 'JsonRpcInvalidRequest', 400),
} as const;
