import { CkbPort } from '../../../src/ckb-health/ckb.port';
import { CkbStateStore } from '../../../src/ckb-health/state/ckb-state.store';
import { CodeIndexPort } from '../../../src/code-intelligence/code-index/code-index.port';
import { TokenIntrospector } from '../../../src/common/auth/token-introspector.port';
import { KnowledgeNetworkPort } from '../../../src/knowledge-network/knowledge-network.port';
import { OperatorPort } from '../../../src/operators/operator.port';

/** A port: an abstract class used as the injection token. */
type PortClass<T> = abstract new (...args: never[]) => T;

/** The names of a port's methods, abstract or not; fields such as `OperatorPort.kind` are not methods. */
type MethodName<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T] & string;

type Fields<T> = Omit<T, MethodName<T>>;

/** Implementations for some methods (each still wrapped in a `jest.fn`) and a value for every field. */
export type PortOverrides<T> = Partial<Pick<T, MethodName<T>>> & Fields<T>;

/** Overrides are optional unless the port has fields to fill in. */
type OverridesArgument<T> = [keyof Fields<T>] extends [never]
  ? [overrides?: PortOverrides<T>]
  : [overrides: PortOverrides<T>];

const PORT_METHODS = new Map<PortClass<unknown>, readonly string[]>();

/**
 * Lists every method of a port. Abstract methods do not exist on the prototype at run time, so the names
 * are written here; the `Record` type makes `npm run lint` (tsc) fail when a port gains, loses or renames one.
 */
function declarePort<T>(port: PortClass<T>, methods: Record<MethodName<T>, true>): void {
  PORT_METHODS.set(port, Object.keys(methods));
}

declarePort(KnowledgeNetworkPort, {
  listNetworks: true,
  exportSchema: true,
  searchConcepts: true,
  queryInstances: true,
  queryInstanceBatch: true,
  querySubgraph: true,
  queryActions: true,
  resolveLogicProperties: true,
  searchMetrics: true,
  createOntologyBuildJob: true,
  listOntologyBuildJobs: true,
  reloadNetwork: true,
  health: true,
});
declarePort(OperatorPort, {
  getToolDetail: true,
  listMcpTools: true,
  getMcpToolDetail: true,
  callMcpTool: true,
  executeTool: true,
  toolProxyUrl: true,
  mcpServerIds: true,
  status: true,
  close: true,
});
declarePort(CkbPort, { listTools: true, callTool: true, close: true });
declarePort(CkbStateStore, { read: true, write: true, close: true });
declarePort(TokenIntrospector, { introspect: true });
declarePort(CodeIndexPort, {
  rebuild: true,
  status: true,
  search: true,
  chunksOfFile: true,
  importNeighbours: true,
  definitions: true,
  callSites: true,
  root: true,
});

/**
 * A mock of a port for unit specs: every method is a `jest.fn` (running the given implementation, else
 * returning undefined), fields take the given values, and `instanceof` the port holds. Naming a method
 * the port does not have fails tsc and, at run time, throws.
 */
export function mockPort<T extends object>(port: PortClass<T>, ...[overrides]: OverridesArgument<T>): jest.Mocked<T> {
  const methods = PORT_METHODS.get(port);
  if (!methods) throw new Error(`mockPort: ${port.name} is not declared in test/support/unit/mocks.ts`);
  const given: Record<string, unknown> = { ...overrides };
  const mock = Object.create(port.prototype) as Record<string, unknown>;
  for (const [name, value] of Object.entries(given)) {
    if (typeof value === 'function' && !methods.includes(name))
      throw new Error(`mockPort: ${port.name} has no method ${name}`);
    if (!methods.includes(name)) mock[name] = value;
  }
  for (const name of methods) {
    const implementation = given[name];
    mock[name] =
      typeof implementation === 'function' ? jest.fn(implementation as (...args: unknown[]) => unknown) : jest.fn();
  }
  return mock as jest.Mocked<T>;
}
