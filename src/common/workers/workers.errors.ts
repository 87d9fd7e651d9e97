import { specificError } from '../errors/error-codes';

/** Refusals of the search worker pool; each 503 carries Retry-After. */
export const WorkerErrors = {
  Overloaded: specificError('ServiceUnavailable', 'SearchOverloaded', 503),
  WorkerLost: specificError('ServiceUnavailable', 'SearchWorkerLost', 503),
  Stopped: specificError('ServiceUnavailable', 'SearchStopped', 503),
} as const;
