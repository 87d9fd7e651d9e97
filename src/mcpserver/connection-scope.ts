import { headerText } from '../common/http/header-text';

/** The connection's X-Kn-ID: the only network its resources, prompts and completions cover when sent. */
export function connectionScope(
  request: { headers?: Record<string, string | string[] | undefined> } | undefined,
): string | undefined {
  return headerText(request?.headers?.['x-kn-id']);
}
