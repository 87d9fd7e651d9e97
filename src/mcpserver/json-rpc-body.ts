import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { describeJsonProblem, inspectJson } from '../common/http/json-inspection';
import { BodyCheck, deferBodyProblem, unparsableBody } from '../common/http/request-body';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** A JSON-RPC message refused before the MCP transport saw it; answered as a JSON-RPC error. */
export class JsonRpcRequestRejected extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'JsonRpcRequestRejected';
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The MCP endpoint's body check. A tool argument that is too deep, too long or not valid Unicode is replaced by
 * null and set aside: the tool runner answers it as an `isError` result naming the argument, as for any
 * other bad argument, and the SDK never serialises the value (V8's JSON.stringify overflows at ~10k
 * levels). Anything wrong outside the arguments is a JSON-RPC error.
 */
export const checkJsonRpcBody: BodyCheck = (request, limits) => {
  if (unparsableBody(request) !== undefined) throw new JsonRpcRequestRejected(PARSE_ERROR, 'Parse error: invalid JSON');
  const body: unknown = request.body;
  const args = isRecord(body) && isRecord(body.params) ? body.params.arguments : undefined;
  if (isRecord(args)) {
    for (const key of Object.keys(args)) {
      const problem = inspectJson({ [key]: args[key] }, limits.json);
      if (!problem) continue;
      deferBodyProblem(request, problem);
      if (key.isWellFormed()) args[key] = null;
      else delete args[key];
    }
  }
  // Arguments sit at level 3 of the message ({params: {arguments: …}}); measured from there they had the REST limit.
  const envelope = { ...limits.json, depth: limits.json.depth + 2 };
  const problem = inspectJson(body, envelope);
  if (problem) {
    throw new JsonRpcRequestRejected(INVALID_REQUEST, `Invalid Request: ${describeJsonProblem(problem, envelope)}`);
  }
};

@Catch(JsonRpcRequestRejected)
export class JsonRpcRejectionFilter implements ExceptionFilter {
  catch(rejection: JsonRpcRequestRejected, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    response.status(400).json({ jsonrpc: '2.0', error: { code: rejection.code, message: rejection.message }, id: null });
  }
}
