import { CkbFailureReason } from './ckb.types';

/** A failed CKB call, already classified into a seed fallback reason by the adapter. */
export class CkbCallError extends Error {
  constructor(
    readonly reason: CkbFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'CkbCallError';
  }
}

/**
 * The CKB (Code Knowledge Backend) MCP server. Adapters own the deadline of every call and throw only
 * `CkbCallError`.
 */
export abstract class CkbPort {
  /** The health probe: MCP `tools/list`; resolves to the tool names. */
  abstract listTools(): Promise<string[]>;

  /** Calls one CKB tool and returns its result: the JSON in its text content, or the text itself. */
  abstract callTool(name: string, args: Record<string, unknown>): Promise<unknown>;

  /** Ends the session (stops a stdio server process). */
  abstract close(): Promise<void>;
}
