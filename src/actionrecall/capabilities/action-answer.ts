import { z } from 'zod';

export const JSON_OBJECT = z.record(z.string(), z.unknown());

/** What execute_action and its dry run (check_action) both answer about the call they were given. */
export const ACTION_CALL_FIELDS = {
  at_id: z.string(),
  kn_id: z.string(),
  action: z.looseObject({
    name: z.string(),
    action_type: z.string().optional(),
    risk_level: z.string().optional(),
    source: z.looseObject({ type: z.string() }),
  }),
  _instance_identity: JSON_OBJECT,
};

export const FIXED_ARGUMENTS = z.looseObject({ applied: z.array(z.string()), overridden: z.array(z.string()) });
