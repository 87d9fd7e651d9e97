import { ANONYMOUS, AccountContext } from './account';
import { currentRequestContext } from '../context/request-context';

export interface ForwardOptions {
  knId?: string;
  /** Only for an upstream that must see the caller's token. */
  includeAuthorization?: boolean;
}

/**
 * The only headers sent upstream (SPEC §5): x-account-id, x-account-type, x-kn-id, x-request-id
 * and, where asked for, authorization. Empty values are dropped, as the upstreams expect.
 */
export function forwardHeaders(options: ForwardOptions = {}, account?: AccountContext): Record<string, string> {
  const context = currentRequestContext();
  const who = account ?? context?.account ?? ANONYMOUS;
  const headers: Record<string, string | undefined> = {
    'x-account-id': who.id,
    'x-account-type': who.type,
    'x-kn-id': options.knId,
    'x-request-id': context?.requestId,
    authorization: options.includeAuthorization && context?.token ? `Bearer ${context.token}` : undefined,
  };
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => !!entry[1]));
}

/** The account headers echoed back to callers (get_action_info `headers`). */
export function accountHeaders(account?: AccountContext): Record<string, string> {
  const who = account ?? currentRequestContext()?.account ?? ANONYMOUS;
  return { 'x-account-id': who.id, 'x-account-type': who.type };
}
