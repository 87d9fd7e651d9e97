import { BknFormatError } from './bkn/bkn-format.error';

/**
 * Every problem found in one network folder, each located to a file and line. A failing file stops
 * only its own check, so an author sees all of them at once (`npm run kn -- check` and start-up alike).
 */
export class NetworkProblems {
  readonly errors: BknFormatError[] = [];
  readonly warnings: string[] = [];

  error(file: string, line: number, problem: string): void {
    this.errors.push(new BknFormatError(file, line, problem));
  }

  warn(message: string): void {
    this.warnings.push(message);
  }

  /** Runs one check; a BknFormatError it throws is recorded and `undefined` returned. */
  collect<T>(check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof BknFormatError)) throw error;
      this.errors.push(error);
      return undefined;
    }
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new NetworkCheckError(this.errors);
  }
}

/** A folder that failed its check: located at its first problem, with every problem in the message. */
export class NetworkCheckError extends BknFormatError {
  constructor(readonly problems: readonly BknFormatError[]) {
    super(problems[0].file, problems[0].line, problems[0].problem);
    this.name = 'NetworkCheckError';
    this.message = problems.map((problem) => problem.message).join('\n');
  }
}
