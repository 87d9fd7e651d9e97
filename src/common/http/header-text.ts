/** A request header as one value: the first when it is repeated, trimmed; absent or blank is undefined. */
export function headerText(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}
