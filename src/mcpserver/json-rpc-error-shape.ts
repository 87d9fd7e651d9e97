import { Injectable, OnModuleInit } from '@nestjs/common';
import { PresentedError } from '../common/errors/error-presenter';
import { ErrorShapeWriter, ErrorShapes, errorMessage, ShapedError } from '../common/errors/error-shapes';
import { JsonRpcErrors } from './json-rpc.errors';

/** The name the MCP endpoint's controller declares with `@ErrorShape`. */
export const JSON_RPC_ERROR_SHAPE = 'json-rpc';

/** JSON-RPC 2.0 §5.1 codes of the refusals, by error code. */
const JSON_RPC_CODES: ReadonlyMap<string, number> = new Map([
  [JsonRpcErrors.ParseError.code, -32700],
  [JsonRpcErrors.InvalidRequest.code, -32600],
]);

/**
 * The MCP endpoint's body refusals as `{jsonrpc: '2.0', error: {code, message}, id: null}` (id null: the
 * message was refused before its id could be trusted), the message translated. Any other error of the
 * endpoint (401 with its challenge, 413, 429) keeps the standard body MCP clients already get.
 */
@Injectable()
export class JsonRpcErrorShape implements ErrorShapeWriter, OnModuleInit {
  constructor(private readonly shapes: ErrorShapes) {}

  onModuleInit(): void {
    this.shapes.register(JSON_RPC_ERROR_SHAPE, this);
  }

  write(presented: PresentedError): ShapedError {
    const code = JSON_RPC_CODES.get(presented.body.code);
    if (code === undefined) return presented;
    const body = { jsonrpc: '2.0', error: { code, message: errorMessage(presented.body) }, id: null };
    return { status: presented.status, headers: presented.headers, body };
  }
}
