import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import { LogicProperty, LogicPropertyRequest, LogicPropertyResult, RelationType } from '../knowledge-network.types';
import { IdentityLookup } from './identity-lookup';
import { NetworkIndex } from './network-index';
import { ObjectTable } from './object-table';
import { boundValue } from './logic-params';
import { rowValues } from './row-mapping';

type Operator = (rowid: number, params: Record<string, unknown>, property: LogicProperty) => unknown;
const AGGREGATES: Record<string, string> = {
  count: 'COUNT',
  sum: 'SUM',
  avg: 'AVG',
  min: 'MIN',
  max: 'MAX',
};

/**
 * Resolves logic properties the embedded store can compute: operators `count_related` and
 * `aggregate_related` over instances reached through a relation type. Other operators answer 501.
 */
export class LogicPropertyCalculator {
  private readonly operators: Record<string, Operator> = {
    count_related: (rowid, params, property) => this.aggregate(rowid, { ...params, function: 'count' }, property),
    aggregate_related: (rowid, params, property) => this.aggregate(rowid, params, property),
  };

  constructor(
    private readonly index: NetworkIndex,
    private readonly relations: Map<string, { type: RelationType; rt: number }>,
    private readonly lookup: IdentityLookup,
  ) {}

  resolve(table: ObjectTable, request: LogicPropertyRequest): LogicPropertyResult {
    const available = table.type.logic_properties;
    const unknown = request.properties.filter((name) => !available.some((property) => property.name === name));
    if (unknown.length > 0) {
      throw new AppException(
        KnErrors.LogicPropertyNotFound,
        `properties not found or not logic properties: [${unknown.join(', ')}] (available logic properties: [${available.map((p) => p.name).join(', ')}])`,
      );
    }
    const wanted = request.properties.map((name) => available.find((property) => property.name === name)!);
    for (const property of wanted) this.checkInputs(property, request.inputs ?? {});
    const datas = request._instance_identities.map((identity, i) => {
      const row = this.lookup.find(table, identity, `_instance_identities[${i}]`);
      const out: Record<string, unknown> = { ...identity };
      for (const property of wanted) {
        out[property.name] = row ? this.compute(table, row, property, request.inputs ?? {}) : null;
      }
      return out;
    });
    return { datas };
  }

  private checkInputs(property: LogicProperty, inputs: Record<string, unknown>): void {
    const operator = property.data_source?.id ?? '';
    if (!this.operators[operator]) {
      throw new AppException(
        KnErrors.LogicPropertyNotComputable,
        `logic property "${property.name}" uses ${property.type} "${operator || 'unknown'}", which the embedded store cannot compute (supported operators: ${Object.keys(this.operators).join(', ')})`,
      );
    }
    const missing = property.parameters.find(
      (p) => p.value_from === 'input' && (inputs[p.name] === undefined || inputs[p.name] === null),
    );
    if (missing) {
      throw new AppException(
        KnErrors.MissingInputParameter,
        `logic property "${property.name}" needs input parameter "${missing.name}"`,
      );
    }
  }

  private compute(
    table: ObjectTable,
    row: Record<string, unknown>,
    property: LogicProperty,
    inputs: Record<string, unknown>,
  ): unknown {
    const values = rowValues(table, row);
    const params: Record<string, unknown> = {};
    for (const parameter of property.parameters) {
      params[parameter.name] =
        parameter.value_from === 'input' ? inputs[parameter.name] : boundValue(parameter, values)?.value;
    }
    return this.operators[property.data_source!.id](row._rowid as number, params, property);
  }

  private aggregate(rowid: number, params: Record<string, unknown>, property: LogicProperty): unknown {
    const notComputable = (why: string): AppException =>
      new AppException(KnErrors.LogicPropertyNotComputable, `logic property "${property.name}": ${why}`);
    const relation = this.relations.get(String(params.relation_type_id ?? ''));
    if (!relation)
      throw notComputable(`parameter relation_type_id "${String(params.relation_type_id)}" is not a relation type`);
    const fn = AGGREGATES[String(params.function ?? 'count').toLowerCase()];
    if (!fn)
      throw notComputable(`function "${String(params.function)}" is not one of ${Object.keys(AGGREGATES).join(', ')}`);
    const sourceTable = this.index.table(relation.type.source_object_type_id)!;
    const targetTable = this.index.table(relation.type.target_object_type_id)!;
    const fromSource = this.index.hasRow(sourceTable, rowid);
    const other = fromSource ? targetTable : sourceTable;
    let column: string | undefined;
    if (fn !== 'COUNT' || params.property !== undefined) {
      const name = String(params.property ?? '');
      column = other.column(name);
      if (!column) throw notComputable(`"${name}" is not a property of ${other.type.id}`);
    }
    return this.index.aggregateRelated({ fn, rt: relation.rt, rowid, fromSource, other, column });
  }
}
