import { ActionType, ConceptGroup, MetricType, ObjectType, RelationType } from '../../knowledge-network.types';

/** Where a definition (or one of its rows) was written, for `file:line` messages. */
export interface Origin {
  file: string;
  line: number;
}

export interface ParsedNetwork {
  id: string;
  name: string;
  comment?: string;
  tags: string[];
  origin: Origin;
}

export interface ParsedObjectType {
  type: ObjectType;
  origin: Origin;
}

export interface DirectMapping {
  kind: 'direct';
  pairs: { source: string; target: string; line: number }[];
}

export interface ViewMapping {
  kind: 'data_view';
  viewId: string;
  line: number;
  source: { objectProperty: string; viewProperty: string; line: number }[];
  target: { viewProperty: string; objectProperty: string; line: number }[];
}

export interface ParsedRelationType {
  type: RelationType;
  mapping: DirectMapping | ViewMapping;
  origin: Origin;
  endpointLine: number;
}

export interface ParsedActionType {
  type: ActionType;
  origin: Origin;
  boundLine: number;
}

export interface ParsedConceptGroup {
  group: ConceptGroup;
  origin: Origin;
}

export interface ParsedMetricType {
  metric: MetricType;
  origin: Origin;
}

/** Everything one network folder declares, before instance data is attached. */
export interface ParsedSchema {
  network: ParsedNetwork;
  objectTypes: ParsedObjectType[];
  relationTypes: ParsedRelationType[];
  actionTypes: ParsedActionType[];
  conceptGroups: ParsedConceptGroup[];
  metricTypes: ParsedMetricType[];
}
