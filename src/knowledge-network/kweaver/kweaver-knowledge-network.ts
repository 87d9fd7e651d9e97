import { AppException } from '../../common/errors/app.exception';
import { PublicErrors } from '../../common/errors/error-codes';
import { UpstreamConfig } from '../../config';
import { KnowledgeNetworkPort } from '../knowledge-network.port';

const pending = (): never => {
  throw new AppException(PublicErrors.NotImplemented, 'KWeaver knowledge network adapter is being built');
};

/** ontology-query + bkn-backend over HTTP (placeholder until the adapter lands). */
export class KweaverKnowledgeNetwork extends KnowledgeNetworkPort {
  constructor(readonly config: UpstreamConfig) {
    super();
  }
  listNetworks = pending;
  exportSchema = pending;
  searchConcepts = pending;
  queryInstances = pending;
  querySubgraph = pending;
  queryActions = pending;
  resolveLogicProperties = pending;
}
