import { ErrorDefinition } from './error-codes';
import { englishDetails, LocalizedDetails } from './localized-details';

/** The one exception type features throw: a catalogue entry plus JSON-able details. */
export class AppException extends Error {
  constructor(
    readonly definition: ErrorDefinition,
    readonly details?: unknown,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(messageOf(definition, details), { cause: options?.cause });
    this.name = 'AppException';
    this.headers = options?.headers ?? {};
  }

  readonly headers: Record<string, string>;

  get status(): number {
    return this.definition.status;
  }
}

// Logs and tests read the message: translated details give their English text, like text details do.
function messageOf(definition: ErrorDefinition, details: unknown): string {
  if (typeof details === 'string') return details;
  return details instanceof LocalizedDetails ? englishDetails(details) : definition.code;
}

/** The wire shape of every error response (SPEC §4). */
export interface ErrorBody {
  code: string;
  description: string;
  solution: string;
  link: string;
  details?: unknown;
}

/**
 * An upstream that already speaks our error body (bkn-backend): its body and status are passed
 * through unchanged instead of being translated.
 */
export class PassThroughException extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.code);
    this.name = 'PassThroughException';
  }
}
