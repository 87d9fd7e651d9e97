import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import { RelationType, RelationTypePath, SubgraphEntry, SubgraphObjectTypeStep } from '../knowledge-network.types';
import { ConditionCompiler, withClause } from './condition-compiler';
import { InstanceQueryRunner } from './instance-query-runner';
import { NetworkIndex } from './network-index';
import { ObjectTable } from './object-table';
import { instanceDisplay, instanceIdentity, Row, rowValues } from './row-mapping';
import { orderClause } from './sort-clause';
import { LIMIT_PARAMETER } from '../../common/sqlite/limit-parameter';

interface Hop {
  relation: RelationType;
  rt: number;
  forward: boolean;
  table: ObjectTable;
  step: SubgraphObjectTypeStep;
}

const DEFAULT_STEP_LIMIT = 1000;
const DEFAULT_PATH_LIMIT = 100;
const MAX_LIMIT = 10000;

const badPath = (problem: string): AppException => new AppException(KnErrors.InvalidSubgraphPath, problem);

function limitOf(value: unknown, fallback: number, path: string): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_LIMIT) {
    throw badPath(`${path} must be an integer between 1 and ${MAX_LIMIT}`);
  }
  return value;
}

/** Follows n-hop relation paths over the materialised edges, one indexed query per hop. */
export class SubgraphWalker {
  constructor(
    private readonly index: NetworkIndex,
    private readonly relations: Map<string, { type: RelationType; rt: number }>,
    private readonly compiler: ConditionCompiler,
    private readonly query: InstanceQueryRunner,
  ) {}

  walk(path: RelationTypePath, at: string): SubgraphEntry {
    const { start, hops } = this.plan(path, at);
    const pathLimit = limitOf(path.limit, DEFAULT_PATH_LIMIT, `${at}.limit`);
    const rows = new Map<number, { table: ObjectTable; row: Row }>();
    const startCompiled = this.compiler.compile(start.step.condition, start.table, this.query);
    const first = this.query.rows(
      start.table,
      startCompiled,
      limitOf(start.step.limit, DEFAULT_STEP_LIMIT, `${at}.object_types[0].limit`),
      orderClause(start.table, start.step.sort, `${at}.object_types[0].sort`),
    );
    let paths: number[][] = first.map((row) => {
      rows.set(row._rowid as number, { table: start.table, row });
      return [row._rowid as number];
    });
    hops.forEach((hop, i) => {
      paths = this.extend(paths, hop, rows, `${at}.object_types[${i + 1}]`, pathLimit);
    });
    return this.entry(paths, hops, rows);
  }

  private plan(
    path: RelationTypePath,
    at: string,
  ): { start: { table: ObjectTable; step: SubgraphObjectTypeStep }; hops: Hop[] } {
    if (!path || typeof path !== 'object') throw badPath(`${at} must be an object`);
    const steps = path.object_types;
    const links = path.relation_types ?? [];
    if (!Array.isArray(steps) || steps.length < 1)
      throw badPath(`${at}.object_types must list at least one object type`);
    if (!Array.isArray(links) || links.length !== steps.length - 1) {
      throw badPath(
        `${at}: a path of ${links.length} hop(s) needs ${links.length + 1} object types (got ${steps.length})`,
      );
    }
    const tables = steps.map((step, i) => {
      const table = typeof step?.id === 'string' ? this.index.table(step.id) : undefined;
      if (!table)
        throw new AppException(
          KnErrors.ObjectTypeNotFound,
          `${at}.object_types[${i}]: object type "${String(step?.id)}" not found`,
        );
      return table;
    });
    const hops = links.map((link, i): Hop => {
      const found = this.relations.get(String(link?.relation_type_id));
      if (!found)
        throw badPath(`${at}.relation_types[${i}]: relation type "${String(link?.relation_type_id)}" not found`);
      const { type, rt } = found;
      const from = steps[i].id;
      const to = steps[i + 1].id;
      const forward = type.source_object_type_id === from && type.target_object_type_id === to;
      const backward = type.source_object_type_id === to && type.target_object_type_id === from;
      const declared =
        (link.source_object_type_id ?? type.source_object_type_id) === type.source_object_type_id &&
        (link.target_object_type_id ?? type.target_object_type_id) === type.target_object_type_id;
      if ((!forward && !backward) || !declared) {
        throw badPath(
          `${at}.relation_types[${i}]: relation "${type.id}" connects ${type.source_object_type_id} → ${type.target_object_type_id}, not ${from} and ${to}`,
        );
      }
      return { relation: type, rt, forward, table: tables[i + 1], step: steps[i + 1] };
    });
    return { start: { table: tables[0], step: steps[0] }, hops };
  }

  private extend(
    paths: number[][],
    hop: Hop,
    rows: Map<number, { table: ObjectTable; row: Row }>,
    at: string,
    pathLimit: number,
  ): number[][] {
    if (paths.length === 0) return [];
    const [from, to] = hop.forward ? ['src', 'dst'] : ['dst', 'src'];
    const compiled = this.compiler.compile(hop.step.condition, hop.table, this.query);
    const frontier = [...new Set(paths.map((path) => path[path.length - 1]))];
    const prefix = withClause(compiled);
    const sql =
      `${prefix.sql}SELECT e.${from} AS _from, t.* FROM edges e JOIN ${hop.table.table} t ON t._rowid = e.${to} ` +
      `WHERE e.rt = ? AND e.${from} IN (SELECT value FROM json_each(?)) AND ${compiled.where} ` +
      `ORDER BY ${orderClause(hop.table, hop.step.sort, `${at}.sort`) ?? 't._rowid'} ${LIMIT_PARAMETER}`;
    const found = this.index
      .prepare(sql)
      .all(
        ...prefix.params,
        hop.rt,
        JSON.stringify(frontier),
        ...compiled.params,
        limitOf(hop.step.limit, DEFAULT_STEP_LIMIT, `${at}.limit`),
      ) as Row[];
    const next = new Map<number, number[]>();
    for (const row of found) {
      const rowid = row._rowid as number;
      rows.set(rowid, { table: hop.table, row });
      const list = next.get(row._from as number) ?? [];
      list.push(rowid);
      next.set(row._from as number, list);
    }
    const extended: number[][] = [];
    for (const path of paths) {
      for (const rowid of next.get(path[path.length - 1]) ?? []) {
        if (extended.length >= pathLimit) return extended;
        extended.push([...path, rowid]);
      }
    }
    return extended;
  }

  private entry(paths: number[][], hops: Hop[], rows: Map<number, { table: ObjectTable; row: Row }>): SubgraphEntry {
    const ids = new Map<number, string>();
    const entry: SubgraphEntry = { objects: {}, relation_paths: [], total_count: paths.length };
    const idOf = (rowid: number): string => {
      const known = ids.get(rowid);
      if (known) return known;
      const { table, row } = rows.get(rowid)!;
      const values = rowValues(table, row);
      const identity = instanceIdentity(table.type, values);
      const id = `${table.type.id}:${Object.values(identity).map(String).join(',')}`;
      entry.objects[id] = {
        id,
        unique_identities: identity,
        object_type_id: table.type.id,
        object_type_name: table.type.name,
        display: instanceDisplay(table, values),
        properties: values,
      };
      ids.set(rowid, id);
      return id;
    };
    for (const path of paths) {
      const relations = hops.map((hop, i) => {
        const [a, b] = [idOf(path[i]), idOf(path[i + 1])];
        return {
          relation_type_id: hop.relation.id,
          source_object_id: hop.forward ? a : b,
          target_object_id: hop.forward ? b : a,
        };
      });
      if (hops.length === 0) idOf(path[0]);
      entry.relation_paths.push({ relations });
    }
    return entry;
  }
}
