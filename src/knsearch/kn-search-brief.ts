import { AppException } from '../common/errors/app.exception';
import { ValidationErrors } from '../common/errors/error-codes';
import { KnSearchNode, KnSearchResponse } from './knsearch.types';

/** Instance nodes a page of a brief answer holds at most. */
export const BRIEF_NODES_PER_PAGE = 5;
/**
 * Bytes of JSON a brief page holds at most (bar its first node, so every page moves on): an MCP result
 * carries the page twice, as structuredContent and as its TOON text, which keeps it under 10 KB.
 */
export const BRIEF_PAGE_BYTES = 4_500;
/** The last node offset a cursor may name (kn_search never recalls more nodes than this). */
const MAX_CURSOR_OFFSET = 10_000;

/** `detail`: the fields of kn_search's answer. */
export type KnSearchDetail = 'brief' | 'full';

/**
 * kn_search's answer as an agent needs it (docs/mcp.md, "Compact answers"): each type's id and what links
 * it (properties by name, relation endpoints, the object type an action acts on); the instance nodes with
 * their properties (the key and name said once, best first, no score), a page at a time, with `next_cursor` when more matched. A later page carries only nodes. `full`
 * (REST's default) is the upstream answer unchanged.
 */
export function briefKnSearch(answer: KnSearchResponse, cursor: string | undefined): Record<string, unknown> {
  const offset = cursorOffset(cursor);
  const nodes = answer.nodes ?? [];
  const first = offset === 0;
  const brief: Record<string, unknown> = {
    object_types: first ? answer.object_types.map(briefObjectType) : [],
    relation_types: first ? answer.relation_types.map(briefRelationType) : [],
    action_types: first ? answer.action_types.map(briefActionType) : [],
  };
  if (answer.nodes) {
    const page = pageOf(nodes, offset, Buffer.byteLength(JSON.stringify(brief)));
    brief.nodes = page;
    brief.total_nodes = nodes.length;
    const next = offset + page.length;
    if (next < nodes.length) brief.next_cursor = encodeCursor(next);
  }
  if (answer.message) brief.message = answer.message;
  return brief;
}

/** The brief nodes from `offset` that fit beside `used` bytes: at least one, at most BRIEF_NODES_PER_PAGE. */
function pageOf(nodes: KnSearchNode[], offset: number, used: number): Record<string, unknown>[] {
  const page: Record<string, unknown>[] = [];
  for (const node of nodes.slice(offset, offset + BRIEF_NODES_PER_PAGE)) {
    const brief = briefNode(node);
    const bytes = Buffer.byteLength(JSON.stringify(brief)) + 1;
    if (page.length > 0 && used + bytes > BRIEF_PAGE_BYTES) break;
    page.push(brief);
    used += bytes;
  }
  return page;
}

function briefObjectType(type: Record<string, unknown>): Record<string, unknown> {
  const names = (list: unknown) =>
    Array.isArray(list) ? list.map((property) => (property as { name: string }).name) : [];
  const logic = names(type.logic_properties);
  return {
    concept_id: type.concept_id,
    concept_name: type.concept_name,
    data_properties: names(type.data_properties),
    ...(logic.length ? { logic_properties: logic } : {}),
  };
}

function briefRelationType(type: Record<string, unknown>): Record<string, unknown> {
  const { concept_id, source_object_type_id, target_object_type_id } = type;
  return { concept_id, source_object_type_id, target_object_type_id };
}

function briefActionType(type: Record<string, unknown>): Record<string, unknown> {
  const { id, name, object_type_id } = type;
  return { id, name, object_type_id };
}

function briefNode(node: KnSearchNode): Record<string, unknown> {
  const { object_type_id, instance_name, unique_identities } = node;
  // The key and the name are already said once; the other properties are the facts.
  const properties = Object.fromEntries(
    Object.entries(node.properties).filter(([name, value]) => !(name in unique_identities) && value !== instance_name),
  );
  // Nodes come best first: the order says what the score said.
  // `_instance_identity`: the one name of an instance's key in every agent-facing answer and argument.
  return { object_type_id, instance_name, _instance_identity: unique_identities, properties };
}

function encodeCursor(offset: number): string {
  return Buffer.from(`nodes:${offset}`).toString('base64url');
}

/** The node offset a cursor names; a cursor this service did not write is the documented 400. */
function cursorOffset(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const match = /^nodes:(\d{1,5})$/.exec(Buffer.from(cursor.slice(0, 64), 'base64url').toString('latin1'));
  const offset = match ? Number(match[1]) : NaN;
  if (!(offset >= 0 && offset <= MAX_CURSOR_OFFSET)) {
    throw new AppException(ValidationErrors.Format, 'cursor is not a next_cursor of this search');
  }
  return offset;
}
