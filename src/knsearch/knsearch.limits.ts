import { NumericRange } from '../common/limits/numeric-range';

// Numeric ranges of the knowledge-network arguments (SPEC §3), declared once: the REST DTOs, the MCP
// tool schemas and the service defaults all read them.

/** Instances one query returns (`limit` of query_object_instance and of each subgraph hop). */
export const INSTANCE_LIMIT: NumericRange = { min: 1, max: 10000, default: 10 };

/** Logic properties one resolve_logic_properties call may name (`properties`). */
export const MAX_LOGIC_PROPERTIES = 100;

/** Concepts kn_schema_search returns (`max_concepts`). */
export const MAX_CONCEPTS: NumericRange = { min: 1, max: 1000, default: 10 };

/** Skills one find_skills call returns (`top_k`). */
export const SKILLS_TOP_K: NumericRange = { min: 1, max: 20, default: 10 };
