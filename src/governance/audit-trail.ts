import { Inject, Injectable, Optional } from '@nestjs/common';
import type { AccountContext } from '../common/auth/account';
import { configToken, GovernanceConfig } from '../config';
import type { AuditDecision, AuditOutcome } from './audit-log';

/** One audit line as `recent_audit` shows it: who, where, what, the decision and outcome — no argument. */
export interface AuditTrailLine {
  time: string;
  account_id: string;
  account_type: string;
  key_id?: string;
  door: string;
  capability: string;
  kn_id?: string;
  decision: AuditDecision;
  outcome: AuditOutcome;
  error_code?: string;
  duration_ms: number;
  request_id?: string;
}

// What the trail repeats of a call's own text (network, capability, ids) must look like an identifier: a
// line is read back by other requests, never a channel for what a hostile caller typed.
const IDENTIFIER = /^[\p{L}\p{N}_.-]{1,128}$/u;
const NOT_AN_IDENTIFIER = '(not an identifier)';

const identifier = (text: string | undefined): string | undefined =>
  text === undefined || IDENTIFIER.test(text) ? text : NOT_AN_IDENTIFIER;

/** Lines kept in memory: enough for an operator's recent view, a fixed cost whatever the traffic. */
export const AUDIT_TRAIL_SIZE = 1000;

/**
 * The last audit lines of this process, in a ring of fixed size, for the console's operator view. The log
 * stays the record; this is a window on it that forgets on restart and is never shared between replicas.
 */
@Injectable()
export class AuditTrail {
  private readonly ring: AuditTrailLine[] = [];
  private next = 0;
  private readonly admins: ReadonlySet<string>;

  constructor(@Optional() @Inject(configToken('governance')) governance?: GovernanceConfig) {
    this.admins = new Set(governance?.auditAdminAccountTypes ?? []);
  }

  /** What a caller may read: its own account's lines, or everyone's for an admin account type. */
  forCaller(principal: AccountContext, limit: number): { scope: 'own' | 'all'; lines: AuditTrailLine[] } {
    if (this.admins.has(principal.type)) return { scope: 'all', lines: this.recent(limit) };
    return { scope: 'own', lines: this.recent(limit, principal.id) };
  }

  add(entry: AuditTrailLine): void {
    const line: AuditTrailLine = {
      ...entry,
      key_id: identifier(entry.key_id),
      capability: identifier(entry.capability)!,
      kn_id: identifier(entry.kn_id),
      error_code: identifier(entry.error_code),
      request_id: identifier(entry.request_id),
    };
    if (this.ring.length < AUDIT_TRAIL_SIZE) this.ring.push(line);
    else this.ring[this.next] = line;
    this.next = (this.next + 1) % AUDIT_TRAIL_SIZE;
  }

  /** The newest lines first, at most `limit`, of one account (or of every account when `accountId` is undefined). */
  recent(limit: number, accountId?: string): AuditTrailLine[] {
    const lines: AuditTrailLine[] = [];
    const size = this.ring.length;
    for (let step = 1; step <= size && lines.length < limit; step++) {
      const line = this.ring[(this.next - step + size) % size];
      if (accountId === undefined || line.account_id === accountId) lines.push(line);
    }
    return lines;
  }
}
