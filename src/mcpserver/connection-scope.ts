/** The connection's X-Kn-ID: the only network its resources, prompts and completions cover when sent. */
export function connectionScope(
  request: { headers?: Record<string, string | string[] | undefined> } | undefined,
): string | undefined {
  const header = request?.headers?.['x-kn-id'];
  return (Array.isArray(header) ? header[0] : header)?.trim() || undefined;
}
