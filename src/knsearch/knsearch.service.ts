import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { KnSummary } from '../knowledge-network/knowledge-network.types';
import {
  KnSearchRequest,
  KnSearchResponse,
  QueryInstanceSubgraphRequest,
  QueryInstanceSubgraphResponse,
  QueryObjectInstanceRequest,
  QueryObjectInstanceResponse,
  ResolveLogicPropertiesRequest,
  ResolveLogicPropertiesResponse,
  SemanticSearchRequest,
  SemanticSearchResponse,
} from './knsearch.types';

const pending = (): never => {
  throw new AppException(PublicErrors.NotImplemented, 'knowledge-network search is being built');
};

/** One method per /kn route; REST controllers, MCP tools and chat tools all call these (placeholder). */
@Injectable()
export class KnSearchService {
  constructor(readonly kn: KnowledgeNetworkPort) {}

  listNetworks(): Promise<KnSummary[]> {
    return this.kn.listNetworks();
  }
  knSearch(_request: KnSearchRequest): Promise<KnSearchResponse> {
    return pending();
  }
  semanticSearch(_request: SemanticSearchRequest): Promise<SemanticSearchResponse> {
    return pending();
  }
  queryObjectInstance(_request: QueryObjectInstanceRequest): Promise<QueryObjectInstanceResponse> {
    return pending();
  }
  queryInstanceSubgraph(_request: QueryInstanceSubgraphRequest): Promise<QueryInstanceSubgraphResponse> {
    return pending();
  }
  resolveLogicProperties(_request: ResolveLogicPropertiesRequest): Promise<ResolveLogicPropertiesResponse> {
    return pending();
  }
}
