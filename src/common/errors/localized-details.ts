/** Error details that are translated into the caller's language when the error is presented. */
export class LocalizedDetails {
  constructor(
    readonly key: string,
    readonly args: Record<string, string | number>,
  ) {}
}
