import { AppException } from '../../common/errors/app.exception';
import { PublicErrors } from '../../common/errors/error-codes';
import { KnConfig } from '../../config';
import { KnowledgeNetworkPort } from '../knowledge-network.port';

const pending = (): never => {
  throw new AppException(PublicErrors.NotImplemented, 'embedded knowledge network is being built');
};

/** BKN files + CSV instance data, indexed in SQLite (placeholder until the adapter lands). */
export class EmbeddedKnowledgeNetwork extends KnowledgeNetworkPort {
  constructor(readonly config: KnConfig) {
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
