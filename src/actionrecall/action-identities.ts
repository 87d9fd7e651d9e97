import { InstanceIdentity } from '../knowledge-network/knowledge-network.types';
import { GetActionInfoRequest } from './actionrecall.types';
import { isPlainObject } from './json-schema';

const isIdentity = (value: unknown): value is InstanceIdentity => isPlainObject(value) && Object.keys(value).length > 0;

/** Non-empty `_instance_identities` wins, else `[_instance_identity]`, else `[]` — never null (contracts §3.1). */
export function collectIdentities(request: GetActionInfoRequest): InstanceIdentity[] {
  const many = Array.isArray(request._instance_identities) ? request._instance_identities.filter(isIdentity) : [];
  if (many.length > 0) return many;
  return isIdentity(request._instance_identity) ? [request._instance_identity] : [];
}
