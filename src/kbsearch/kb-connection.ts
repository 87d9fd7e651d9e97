import { headerText } from '../common/http/header-text';
import { pathSegment } from '../common/http/upstream-url';
import { exceeded } from '../common/limits/input-limits';
import { KbConfig } from '../config';
import { parseIdList } from '../config/kb.config';
import { KbConnection } from './kb.types';

export const API_KEY_HEADER = 'x-weknora-api-key';
export const KB_IDS_HEADER = 'x-weknora-kb-ids';

/** Bounds on the connection's scope headers, checked before any call. */
export const KB_HEADER_LIMITS = { ids: 50, idLength: 128, apiKeyLength: 4096 } as const;

type Headers = Record<string, string | string[] | undefined>;

/**
 * The search scope and credential of one request (seed 003 §3.2, SPEC §9): the `X-WeKnora-Api-Key` and
 * `X-WeKnora-KB-IDs` headers of the MCP connection or REST request, else WEKNORA_API_KEY and
 * WEKNORA_KB_IDS. Never a tool argument; the key is kept out of every message. `requestId` goes upstream
 * as X-Request-Id.
 */
export function kbConnection(headers: Headers | undefined, config: KbConfig, requestId?: string): KbConnection {
  const apiKey = headerText(headers?.[API_KEY_HEADER]);
  if (apiKey && apiKey.length > KB_HEADER_LIMITS.apiKeyLength) {
    throw exceeded('maxLength', 'X-WeKnora-Api-Key', KB_HEADER_LIMITS.apiKeyLength);
  }
  const idsHeader = headerText(headers?.[KB_IDS_HEADER]);
  const kbIds = idsHeader !== undefined ? parseIdList(idsHeader) : config.weknora.kbIds;
  if (kbIds.length > KB_HEADER_LIMITS.ids) throw exceeded('arrayMaxSize', 'X-WeKnora-KB-IDs', KB_HEADER_LIMITS.ids);
  if (kbIds.some((id) => id.length > KB_HEADER_LIMITS.idLength)) {
    throw exceeded('maxLength', 'X-WeKnora-KB-IDs', KB_HEADER_LIMITS.idLength);
  }
  // Each id may become a WeKnora path segment: one that is not (`..`, `a/b`) is refused before any call.
  if (idsHeader !== undefined) kbIds.forEach((id) => pathSegment('X-WeKnora-KB-IDs', id));
  return { apiKey, kbIds, requestId };
}
