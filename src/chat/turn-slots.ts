import { AppException } from '../common/errors/app.exception';
import { LocalizedDetails } from '../common/errors/localized-details';
import { ChatErrors } from './chat.errors';

/**
 * The chat completions each account has in progress on this replica, at most `limit` at once
 * (CHAT_MAX_STREAMS_PER_ACCOUNT): one account cannot hold every model connection and tool slot.
 */
export class TurnSlots {
  private readonly inProgress = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** Takes a slot for `accountId` (429 when it has none left); the returned function gives it back, once. */
  take(accountId: string): () => void {
    const held = this.inProgress.get(accountId) ?? 0;
    if (held >= this.limit) {
      throw new AppException(ChatErrors.TooManyTurns, new LocalizedDetails('chat.limits.turns', { limit: this.limit }));
    }
    this.inProgress.set(accountId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inProgress.get(accountId) ?? 1) - 1;
      if (left > 0) this.inProgress.set(accountId, left);
      else this.inProgress.delete(accountId);
    };
  }

  /** Completions in progress for `accountId`. */
  held(accountId: string): number {
    return this.inProgress.get(accountId) ?? 0;
  }
}
