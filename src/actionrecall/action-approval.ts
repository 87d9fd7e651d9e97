import type { Language } from '../config/i18n.config';
import type { ActionSource, InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import { AppException } from '../common/errors/app.exception';
import { ActionRecallErrors } from './actionrecall.errors';

/** What a human approves: the action, the one instance, the arguments as they will be sent, and its impact. */
export interface ApprovalQuestion {
  knId: string;
  atId: string;
  actionName: string;
  actionType?: string;
  riskLevel?: string;
  source: ActionSource;
  instance: InstanceIdentity;
  arguments: Record<string, unknown>;
  /** Why approval is needed: the action type requires it, or it is high risk. */
  reason: 'requires_approval' | 'high_risk';
  language: Language;
}

export type ApprovalAnswer = 'approved' | 'declined';

/**
 * A way to ask the human behind the client (MCP elicitation, or a multi-round-trip `input_required`
 * result). When a door offers one, the model's own `confirm` argument never approves an action.
 */
export interface HumanChannel {
  /** `elicitation` (asked and answered within the call) or `input_required` (answered by a retried call). */
  readonly kind: 'elicitation' | 'input_required';
  /**
   * The human's answer; an `input_required` channel without an answer for this exact question throws
   * {@link ApprovalInputRequired}, which its door turns into the question sent to the client.
   */
  ask(question: ApprovalQuestion): Promise<ApprovalAnswer>;
}

/** Thrown by an `input_required` channel: the call ends here and the client asks its human, then retries. */
export class ApprovalInputRequired extends AppException {
  constructor(readonly question: ApprovalQuestion) {
    super(ActionRecallErrors.ActionApprovalPending, `action ${question.atId} waits for the user's approval`);
  }
}
