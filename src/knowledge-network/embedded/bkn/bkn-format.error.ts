/** A problem in a BKN or CSV file, located to the line so an author can fix it (`file:line: what`). */
export class BknFormatError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly problem: string,
  ) {
    super(`${file}:${line}: ${problem}`);
    this.name = 'BknFormatError';
  }
}
