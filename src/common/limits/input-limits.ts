import { Inject, Injectable } from '@nestjs/common';
import { configToken, LimitsConfig } from '../../config';
import { AppException } from '../errors/app.exception';
import { ValidationErrors } from '../errors/error-codes';
import { LocalizedDetails } from '../errors/localized-details';
import { isRecord } from '../http/json-inspection';
import { requiredDetails } from '../http/required-text';
import { distinctWords } from '../text/words';

type Rule = 'maxLength' | 'searchTerms' | 'arrayMaxSize' | 'depth' | 'conditionNodes' | 'hops';

/** The documented 400 for a limit: `LimitExceeded` naming the field and the limit, translated. */
export const exceeded = (rule: Rule, field: string, limit: number): AppException =>
  new AppException(ValidationErrors.LimitExceeded, new LocalizedDetails(`validation.${rule}`, { field, limit }));

/** Ids (kn_id, ot_id, at_id) are names, not text: one fixed bound keeps lookups and messages small. */
export const MAX_ID_LENGTH = 256;

/** An id longer than MAX_ID_LENGTH characters is refused, naming the field. */
export function checkIdentifier(field: string, value: unknown): void {
  if (typeof value === 'string' && value.length > MAX_ID_LENGTH) throw exceeded('maxLength', field, MAX_ID_LENGTH);
}

/** A required id (ot_id, at_id): trimmed, non-blank and bounded, else the documented 400 naming it. */
export function requireIdentifier(field: string, value: unknown): string {
  const id = typeof value === 'string' ? value.trim() : '';
  if (id === '') throw new AppException(ValidationErrors.Required, requiredDetails(field));
  checkIdentifier(field, id);
  return id;
}

const SEARCH_OPERATIONS = new Set(['match', 'knn']);
const LIST_OPERATIONS = new Set(['in', 'not_in']);

interface ConditionFrame {
  node: unknown;
  depth: number;
  path: string;
}

/**
 * The request limits of SPEC §4, checked by every service before it does work, so the REST route, the
 * MCP tool and the chat tool refuse the same input with the same 400 naming the field and the limit.
 * Only sizes are checked here; the shape of a value (is it a valid condition?) is the adapter's business.
 */
@Injectable()
export class InputLimits {
  constructor(@Inject(configToken('limits')) private readonly limits: LimitsConfig) {}

  /** Free text: at most MAX_TEXT_LENGTH characters (code points, so 2,000 Chinese characters fit). */
  text(field: string, value: unknown): void {
    if (typeof value !== 'string' || value.length <= this.limits.textLength) return;
    // A string longer than twice the limit has more code points than the limit; only count in between.
    if (value.length > 2 * this.limits.textLength || [...value].length > this.limits.textLength) {
      throw exceeded('maxLength', field, this.limits.textLength);
    }
  }

  /** Text that is segmented and searched: bounded in length, then in distinct words (MAX_SEARCH_TERMS). */
  searchText(field: string, value: unknown): void {
    this.text(field, value);
    if (typeof value === 'string' && distinctWords(value).length > this.limits.searchTerms) {
      throw exceeded('searchTerms', field, this.limits.searchTerms);
    }
  }

  /** `_instance_identities`: at most MAX_INSTANCE_IDENTITIES entries. */
  instanceIdentities(field: string, value: unknown): void {
    this.items(field, value, this.limits.instanceIdentities);
  }

  /** A condition tree: depth, node count, `in` lists and the text of every leaf. */
  condition(field: string, root: unknown): void {
    const stack: ConditionFrame[] = [{ node: root, depth: 1, path: field }];
    let nodes = 0;
    for (let frame = stack.pop(); frame; frame = stack.pop()) {
      const { node, depth, path } = frame;
      if (!isRecord(node)) continue;
      if (depth > this.limits.conditionDepth) throw exceeded('depth', field, this.limits.conditionDepth);
      nodes += 1;
      this.conditionValue(node, path);
      const children = Array.isArray(node.sub_conditions) ? node.sub_conditions : [];
      // Counted before they are stacked, so a node with a million children costs nothing to refuse.
      if (nodes + stack.length + children.length > this.limits.conditionNodes) {
        throw exceeded('conditionNodes', field, this.limits.conditionNodes);
      }
      children.forEach((child, i) =>
        stack.push({ node: child, depth: depth + 1, path: `${path}.sub_conditions[${i}]` }),
      );
    }
  }

  /** Subgraph paths: how many, how many hops each, and the condition of every object type step. */
  relationTypePaths(field: string, paths: unknown): void {
    this.items(field, paths, this.limits.subgraphPaths);
    if (!Array.isArray(paths)) return;
    paths.forEach((path, i) => {
      const steps = isRecord(path) ? path.object_types : undefined;
      if (!Array.isArray(steps)) return;
      if (steps.length - 1 > this.limits.subgraphHops)
        throw exceeded('hops', `${field}[${i}]`, this.limits.subgraphHops);
      steps.forEach((step, j) => {
        if (isRecord(step)) this.condition(`${field}[${i}].object_types[${j}].condition`, step.condition);
      });
    });
  }

  /**
   * Free-form JSON handed on to a tool (execute_action `arguments`): at most MAX_JSON_DEPTH levels, at most
   * MAX_ARRAY_ITEMS values in all, every string at most MAX_TEXT_LENGTH characters. Walked without recursion.
   */
  freeJson(field: string, root: unknown): void {
    const stack: { value: unknown; depth: number; path: string }[] = [{ value: root, depth: 1, path: field }];
    let values = 0;
    for (let frame = stack.pop(); frame; frame = stack.pop()) {
      const { value, depth, path } = frame;
      values += 1;
      if (values > this.limits.json.items) throw exceeded('arrayMaxSize', field, this.limits.json.items);
      if (typeof value === 'string') this.text(path, value);
      if (value === null || typeof value !== 'object') continue;
      if (depth > this.limits.json.depth) throw exceeded('depth', field, this.limits.json.depth);
      const entries: [string, unknown][] = Array.isArray(value)
        ? value.map((child, i) => [`[${i}]`, child as unknown])
        : Object.entries(value).map(([key, child]) => [`.${key}`, child]);
      // Counted before they are stacked, so a huge container costs nothing more to refuse.
      if (values + stack.length + entries.length > this.limits.json.items) {
        throw exceeded('arrayMaxSize', field, this.limits.json.items);
      }
      for (const [suffix, child] of entries) stack.push({ value: child, depth: depth + 1, path: `${path}${suffix}` });
    }
  }

  private conditionValue(node: Record<string, unknown>, path: string): void {
    const operation = node.operation;
    if (typeof operation === 'string' && SEARCH_OPERATIONS.has(operation)) this.searchText(`${path}.value`, node.value);
    else this.text(`${path}.value`, node.value);
    if (typeof operation === 'string' && LIST_OPERATIONS.has(operation)) {
      this.items(`${path}.value`, node.value, this.limits.inList);
    }
  }

  private items(field: string, value: unknown, limit: number): void {
    if (Array.isArray(value) && value.length > limit) throw exceeded('arrayMaxSize', field, limit);
  }
}
