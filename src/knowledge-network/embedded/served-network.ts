import { KnSummary, NetworkIndexStatus } from '../knowledge-network.types';
import { BuiltNetwork } from './network-stores';

/** A served network: what its last successful build reported, and the state of a re-index. */
export interface ServedNetwork {
  built: BuiltNetwork;
  folder: string;
  state: NetworkIndexStatus['state'];
  error?: string;
}

/** A network's entry in /health: what it is, how it searches, and its index. */
export function healthEntryOf(served: ServedNetwork): Record<string, unknown> {
  const network = served.built;
  const { id, name, instance_count } = summaryOf(network);
  const search = network.hybridSearch ? 'hybrid' : 'keyword-only';
  const { kn_id: _id, ...status } = statusOf(served);
  const checked = network.index.checked;
  const index = checked ? { ...status, checked } : status;
  const entry = { id, name, instances: instance_count, search, index };
  return network.embeddingError ? { ...entry, embedding_error: network.embeddingError } : entry;
}

export function summaryOf({ schema, instanceCount }: BuiltNetwork): KnSummary {
  return {
    id: schema.id,
    name: schema.name,
    comment: schema.comment,
    object_type_count: schema.object_types.length,
    relation_type_count: schema.relation_types.length,
    action_type_count: schema.action_types.length,
    instance_count: instanceCount,
  };
}

export function statusOf({ built, state, error }: ServedNetwork): NetworkIndexStatus {
  const { hash, storage, builtAt, buildMs, reused } = built.index;
  const status: NetworkIndexStatus = {
    kn_id: built.id,
    state,
    hash,
    storage,
    built_at: builtAt,
    build_ms: buildMs,
    reused,
  };
  return error ? { ...status, error } : status;
}
