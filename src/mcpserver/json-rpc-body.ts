import type { Request } from 'express';
import { AppException } from '../common/errors/app.exception';
import { LocalizedDetails } from '../common/errors/localized-details';
import { inspectJson, isRecord, JsonBounds, jsonProblemDetails, JsonProblem } from '../common/http/json-inspection';
import { BodyCheck, recordArgumentInspection, unparsableBody } from '../common/http/request-body';
import { JsonRpcErrors } from './json-rpc.errors';

/**
 * The MCP endpoint's body check. A tool argument that is too deep, too long or not valid Unicode is replaced by
 * null and set aside: the tool runner answers it as an `isError` result naming the argument, as for any
 * other bad argument, and the SDK never serialises the value (V8's JSON.stringify overflows at ~10k
 * levels). Anything wrong outside the arguments is a JsonRpcErrors code, which the endpoint's error shape
 * answers as a JSON-RPC error.
 */
export const checkJsonRpcBody: BodyCheck = (request, limits) => {
  const target = unusableTarget(request);
  if (target) throw new AppException(JsonRpcErrors.InvalidRequest, new LocalizedDetails(`mcp.jsonRpc.${target}`, {}));
  if (unparsableBody(request) !== undefined) {
    throw new AppException(JsonRpcErrors.ParseError, new LocalizedDetails('mcp.jsonRpc.invalidJson', {}));
  }
  const body: unknown = request.body;
  const params = isRecord(body) && isRecord(body.params) ? body.params : undefined;
  const args = isRecord(params?.arguments) ? params.arguments : undefined;
  if (args) recordArgumentInspection(request, quarantine(args, limits.json));
  // The arguments were just inspected from their own root, as a REST body is; the rest of the message is not.
  const envelope = args && isRecord(body) ? { ...body, params: { ...params, arguments: {} } } : body;
  const problem = inspectJson(envelope, limits.json);
  if (problem) throw new AppException(JsonRpcErrors.InvalidRequest, jsonProblemDetails(problem, limits.json));
};

// Host values the transport takes as they are; anything else it parses, and refuses if parsing changes it.
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/**
 * The transport rebuilds the request URL from the target and the Host header and answers a bare 400 (no
 * body) when it cannot, or when the path holds a backslash; such a request is refused here instead. The
 * answer is the key of mcp.json's `jsonRpc` text saying why.
 */
function unusableTarget(request: Request): 'backslashPath' | 'invalidHost' | undefined {
  const target = request.originalUrl;
  const query = target.indexOf('?');
  if ((query === -1 ? target : target.slice(0, query)).includes('\\')) return 'backslashPath';
  const host = request.headers.host ?? 'localhost';
  if (PLAIN_HOST.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}/`);
    if (url.hostname !== host.replace(/:\d+$/, '').toLowerCase()) return 'invalidHost';
  } catch {
    return 'invalidHost';
  }
  return undefined;
}

/** Replaces every argument that fails inspection by null (a key that is not valid Unicode is removed). */
function quarantine(args: Record<string, unknown>, bounds: JsonBounds): JsonProblem[] {
  const problems: JsonProblem[] = [];
  for (const key of Object.keys(args)) {
    const problem = inspectJson({ [key]: args[key] }, bounds);
    if (!problem) continue;
    problems.push(problem);
    if (key.isWellFormed()) args[key] = null;
    else delete args[key];
  }
  return problems;
}
