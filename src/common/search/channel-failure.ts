import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';

/** Why a retrieval channel (query embedding or rerank) was skipped: the bounded label of its metric. */
export const CHANNEL_FAILURE_REASONS = [
  'timeout',
  'unreachable',
  'http_error',
  'malformed',
  'too_large',
  'dimension',
  'not_finite',
  'count',
] as const;
export type ChannelFailureReason = (typeof CHANNEL_FAILURE_REASONS)[number];

/**
 * An answer from an embedding or rerank endpoint that cannot be used (a 502 wherever it is not caught);
 * the message never quotes the body.
 */
export class ChannelFailure extends AppException {
  constructor(
    readonly reason: ChannelFailureReason,
    message: string,
  ) {
    super(UpstreamErrors.BadResponse, message);
  }
}

/**
 * The position an item of an endpoint's answer names (`index`), checked before it is used: an integer
 * below `count` that no earlier item named (`taken`); anything else is a ChannelFailure 'count' with
 * `message`.
 */
export function answerSlot(index: unknown, count: number, taken: (slot: number) => boolean, message: string): number {
  if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || taken(index))
    throw new ChannelFailure('count', message);
  return index;
}

/** The metric label for whatever an endpoint call threw. */
export function channelFailureReason(error: unknown): ChannelFailureReason {
  if (error instanceof ChannelFailure) return error.reason;
  const definition = (error as AppException | undefined)?.definition;
  if (definition === UpstreamErrors.Timeout) return 'timeout';
  if (definition === UpstreamErrors.Unreachable) return 'unreachable';
  return definition === UpstreamErrors.BadResponse ? 'http_error' : 'malformed';
}
