import {
  classifyInboundRequest,
  isJsonContentType,
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { JSONRPCMessage, JSONRPCRequest, Transport } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isRecord } from '../common/http/json-inspection';

/** Host and Origin allowlists of the endpoint (already resolved: `localhost` expanded), as the SDK checks them. */
export interface HeaderAllowlists {
  allowedHosts?: string[];
  allowedOrigins?: string[];
}

/** The supported protocol versions of the 2025 leg, as the SDK's classification sorts them (asked once). */
const LEGACY_VERSIONS: ReadonlySet<string> = new Set(
  SUPPORTED_PROTOCOL_VERSIONS.filter(
    (version) =>
      classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: version,
        body: { jsonrpc: '2.0', id: 0, method: 'ping' },
      }).kind === 'legacy',
  ),
);

/**
 * The one request of a stateless, JSON-answered MCP POST when the SDK's streamable HTTP transport would
 * accept it unchanged, else undefined (that transport then serves it, with its own error for whatever is
 * wrong). Every check here is one the SDK or mcp-nest makes on that path, so the two cannot disagree on
 * what is served: a single JSON-RPC request (no batch, no notification, no response) that is not
 * `initialize`, of the 2025 protocol leg, with a supported `MCP-Protocol-Version` (or none), an Accept of
 * both JSON and SSE, a JSON content type, and a Host and Origin the endpoint allows.
 */
export function plainJsonRequest(
  request: IncomingMessage,
  body: unknown,
  allowlists: HeaderAllowlists,
): JSONRPCRequest | undefined {
  // `initialize` by name: the SDK's own guard also checks its params.
  if (!isJSONRPCRequest(body) || body.method === 'initialize') return undefined;
  const headers = request.headers;
  const accept = headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (!isJsonContentType(headers['content-type'])) return undefined;
  const version = headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
    return undefined;
  if (allowlists.allowedOrigins && !validateOriginHeader(headers.origin, allowlists.allowedOrigins).ok)
    return undefined;
  if (allowlists.allowedHosts && !validateHostHeader(headers.host, allowlists.allowedHosts).ok) return undefined;
  return isLegacyRequest(version, body) ? body : undefined;
}

/**
 * Whether the SDK's `classifyInboundRequest` puts a JSON-RPC request (not `initialize`) on the 2025 leg: it
 * names a 2025 version or none, and its params claim no protocol version in `_meta` (the 2026 envelope).
 * The SDK's own function re-validates the body against three message schemas first, a few microseconds
 * of every call; its spec checks that both agree.
 */
export function isLegacyRequest(version: string | undefined, body: JSONRPCRequest): boolean {
  if (version !== undefined && !LEGACY_VERSIONS.has(version)) return false;
  const meta = isRecord(body.params) ? body.params._meta : undefined;
  return !(isRecord(meta) && PROTOCOL_VERSION_META_KEY in meta);
}

/**
 * An MCP transport for one JSON-RPC request answered as one JSON body: what the SDK's streamable HTTP
 * transport does in stateless JSON mode for such a request, written straight to the Node response instead
 * of through a web-standard Request and Response (whose conversion cost as much as the rest of the
 * transport). Messages other than the answer (progress, log notifications) are dropped, as JSON mode
 * drops them. If the client goes away first, the server is closed, which aborts the call's signal.
 */
export class JsonReplyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private closed = false;

  constructor(
    private readonly request: JSONRPCRequest,
    private readonly response: ServerResponse,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Hands the request to the server; the answer comes back through `send`. */
  deliver(authInfo: unknown): void {
    this.response.once('close', () => {
      if (!this.response.writableFinished) void this.close();
    });
    const extra = authInfo === undefined ? undefined : { authInfo };
    this.onmessage?.(this.request, extra as Parameters<NonNullable<Transport['onmessage']>>[1]);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed || this.response.headersSent || !answers(message, this.request)) return Promise.resolve();
    const body = JSON.stringify(message);
    this.response.statusCode = 200;
    this.response.setHeader('content-type', 'application/json');
    this.response.end(body);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.onclose?.();
    return Promise.resolve();
  }
}

/**
 * Whether a message the server sends is its answer to `request`: a response (a result or an error, no
 * method) with the request's id. Told by shape, not by the SDK's schema guards: the message is the SDK
 * server's own, and validating a whole tool result again cost about 1 % of a call.
 */
function answers(message: JSONRPCMessage, request: JSONRPCRequest): boolean {
  return (
    !('method' in message) &&
    ('result' in message || 'error' in message) &&
    'id' in message &&
    message.id === request.id
  );
}
