import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../capabilities/capability';
import { AUDIT_TRAIL_SIZE, AuditTrail } from './audit-trail';

const OUTPUT = z.looseObject({
  scope: z.enum(['own', 'all']),
  lines: z.array(
    z.looseObject({
      time: z.string(),
      account_id: z.string(),
      account_type: z.string(),
      door: z.string(),
      capability: z.string(),
      kn_id: z.string().optional(),
      decision: z.string(),
      outcome: z.string(),
      error_code: z.string().optional(),
      duration_ms: z.number(),
      request_id: z.string().optional(),
    }),
  ),
});

/**
 * `recent_audit` and `GET /audit/recent`: this process's latest audit lines — the caller's own account's,
 * or every account's for the account types AUDIT_ADMIN_ACCOUNT_TYPES names. Offered on REST and the tool
 * API only: it is for people watching the service, not for a model's context.
 */
export const RECENT_AUDIT = defineCapability({
  name: 'recent_audit',
  title: { 'en-US': 'Recent audit lines', 'zh-Hans': '最近的审计记录' },
  description: {
    'en-US':
      "The latest capability calls this service instance audited, newest first: your own account's lines " +
      "(an administrator's account type sees every account's). Each line names the account, door, capability, " +
      'kn_id, policy decision, outcome, error code, duration and request id — never argument values.',
    'zh-Hans':
      '本服务实例最近审计的能力调用，最新的在前：只含调用者自己账户的记录（管理员账户类型可见所有账户）。' +
      '每条记录给出账户、入口、能力、kn_id、策略决定、结果、错误码、耗时和请求 id——从不包含参数值。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'none',
  arguments: {
    limit: z
      .number()
      .int()
      .min(1)
      .max(AUDIT_TRAIL_SIZE)
      .default(50)
      .describe(`How many lines, newest first (1..${AUDIT_TRAIL_SIZE}, default 50)`),
  },
  output: OUTPUT,
  text: 'json',
  doors: ['rest', 'tool-api'],
  rest: { method: 'GET', path: 'audit/recent', query: { limit: 'integer' } },
  service: AuditTrail,
  run: (trail, input, context) => {
    const { scope, lines } = trail.forCaller(context.principal, input.limit);
    return Promise.resolve({ scope, lines: lines.filter((line) => !line.kn_id || context.seesNetwork(line.kn_id)) });
  },
});
