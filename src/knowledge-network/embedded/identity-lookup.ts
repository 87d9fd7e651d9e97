import { AppException } from '../../common/errors/app.exception';
import { KnErrors } from '../knowledge-network.errors';
import { InstanceIdentity, KnCondition } from '../knowledge-network.types';
import { ConditionCompiler } from './condition-compiler';
import { InstanceQueryRunner } from './instance-query-runner';
import { ObjectTable } from './object-table';
import { Row } from './row-mapping';

/** Finds the stored row of an instance identity (its primary-key map), validated like any condition. */
export class IdentityLookup {
  constructor(
    private readonly compiler: ConditionCompiler,
    private readonly query: InstanceQueryRunner,
  ) {}

  find(table: ObjectTable, identity: InstanceIdentity, at: string): Row | undefined {
    if (!identity || typeof identity !== 'object' || Array.isArray(identity)) {
      throw new AppException(KnErrors.InvalidCondition, `${at} must be an object of primary-key values`);
    }
    const missing = table.type.primary_keys.find((key) => identity[key] === undefined || identity[key] === null);
    if (missing) {
      throw new AppException(
        KnErrors.InvalidCondition,
        `${at} lacks primary key "${missing}" of object type "${table.type.id}"`,
      );
    }
    const condition: KnCondition = {
      operation: 'and',
      sub_conditions: table.type.primary_keys.map((key) => ({
        operation: '==',
        field: key,
        value: identity[key],
      })),
    };
    return this.query.rows(table, this.compiler.compile(condition, table, this.query), 1)[0];
  }
}
