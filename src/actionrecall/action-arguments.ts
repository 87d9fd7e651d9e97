import { isDeepStrictEqual } from 'node:util';
import { LayeredParams, mapFixedParams } from './fixed-params';
import { isPlainObject } from './json-schema';
import { PARAMETER_LOCATIONS } from './layered-tool-schema';

/** Which arguments the knowledge network fixed: every fixed name, and those whose caller value was replaced. */
export interface FixedArguments {
  applied: string[];
  overridden: string[];
}

export interface MergedArguments<T> {
  /** What is sent to the tool. */
  arguments: T;
  fixed_arguments: FixedArguments;
}

const LOCATIONS: ReadonlySet<string> = new Set(PARAMETER_LOCATIONS);

/**
 * The action's fixed values over the caller's arguments (SPEC §6 fixed_params; fixed values win). A fixed
 * value the instance leaves empty (null) removes the caller's value instead of letting it through: the
 * network decides that argument, even when it has nothing to send.
 */
export function mergeFlatArguments(
  callerArguments: Record<string, unknown>,
  fixed: Record<string, unknown>,
  prefix = '',
): MergedArguments<Record<string, unknown>> {
  const merged: Record<string, unknown> = { ...callerArguments };
  const fixedArguments: FixedArguments = { applied: [], overridden: [] };
  for (const [name, value] of Object.entries(fixed)) {
    const sent = Object.prototype.hasOwnProperty.call(callerArguments, name);
    if (sent && !isDeepStrictEqual(callerArguments[name], value)) fixedArguments.overridden.push(`${prefix}${name}`);
    fixedArguments.applied.push(`${prefix}${name}`);
    if (value === null || value === undefined) delete merged[name];
    else merged[name] = value;
  }
  return { arguments: merged, fixed_arguments: fixedArguments };
}

/** True when the arguments are already layered: only `header`/`path`/`query`/`body` keys, each an object. */
export function isLayered(callerArguments: Record<string, unknown>): boolean {
  const entries = Object.entries(callerArguments);
  return entries.length > 0 && entries.every(([key, value]) => LOCATIONS.has(key) && isPlainObject(value));
}

/**
 * A toolbox call's `{header, path, query, body}`: the fixed parameters placed as get_action_info places
 * them (by the api_spec's `in`, else header-like names to headers, the rest to the body), layered caller
 * arguments as given and flat ones placed the same way; then each location's fixed values win. Names in
 * `fixed_arguments` are `location.name`.
 */
export function mergeLayeredArguments(
  callerArguments: Record<string, unknown>,
  fixedParameters: Record<string, unknown>,
  apiSpec: unknown,
): MergedArguments<LayeredParams> {
  const fixed = mapFixedParams(fixedParameters, apiSpec);
  const layered = isLayered(callerArguments)
    ? (callerArguments as Partial<LayeredParams>)
    : mapFixedParams(callerArguments, apiSpec);
  const merged = {} as LayeredParams;
  const fixedArguments: FixedArguments = { applied: [], overridden: [] };
  for (const location of PARAMETER_LOCATIONS) {
    const one = mergeFlatArguments(layered[location] ?? {}, fixed[location], `${location}.`);
    merged[location] = one.arguments;
    fixedArguments.applied.push(...one.fixed_arguments.applied);
    fixedArguments.overridden.push(...one.fixed_arguments.overridden);
  }
  return { arguments: merged, fixed_arguments: fixedArguments };
}
