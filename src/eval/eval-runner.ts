import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { InputLimits } from '../common/limits/input-limits';
import { loadConfig } from '../config';
import { EmbeddedKnowledgeNetwork } from '../knowledge-network/embedded/embedded-knowledge-network';
import { NetworkLoader } from '../knowledge-network/embedded/network-loader';
import { KnSearchService } from '../knsearch/knsearch.service';
import { EvalQuery, QuerySet } from './query-set';
import { instanceKey, resolveLabels, TypeRows } from './relevance-labels';
import { Judgements, QueryScores, scoreQuery } from './retrieval-metrics';

/** One query's outcome: what kn_search listed, how it scored, how long it took. */
export interface QueryOutcome {
  query: EvalQuery;
  judgements: Judgements;
  concepts: string[];
  instances: string[];
  scores: QueryScores;
  ms: number;
}

export interface EvalRun {
  network: string;
  search: 'keyword-only' | 'hybrid';
  outcomes: QueryOutcome[];
}

/**
 * Serves one network folder with the embedded adapter, as the service does (KN_DIR holding only that
 * folder, environment variables such as EMBEDDING_URL honoured), and runs every query through
 * kn_search: once to warm up, once timed and scored.
 */
export async function evaluate(folder: string, set: QuerySet, env: NodeJS.ProcessEnv = process.env): Promise<EvalRun> {
  const absolute = path.resolve(folder);
  const root = mkdtempSync(path.join(tmpdir(), 'kn-eval-'));
  symlinkSync(absolute, path.join(root, path.basename(absolute)), 'dir');
  const config = loadConfig({ ...env, KN_DIR: root, KN_STRICT: 'true', LOG_LEVEL: 'silent' });
  const kn = new EmbeddedKnowledgeNetwork({ ...config.kn, queryCacheSize: 0 });
  try {
    await kn.load();
    const schema = await kn.exportSchema(set.network);
    const data = typeRows(root, path.join(root, path.basename(absolute)), schema.object_types);
    const service = new KnSearchService(kn, new InputLimits(config.limits));
    for (const query of set.queries) await service.knSearch({ kn_id: set.network, query: query.query });
    const outcomes: QueryOutcome[] = [];
    for (const query of set.queries) {
      const judgements = resolveLabels(query.relevant, data);
      const started = performance.now();
      const response = await service.knSearch({ kn_id: set.network, query: query.query });
      const ms = performance.now() - started;
      const concepts = [response.object_types, response.relation_types, response.action_types].map((list) =>
        list.slice(0, 3).map((concept) => String(concept.concept_id ?? concept.id)),
      );
      const instances = (response.nodes ?? []).map((node) =>
        instanceKey(data.get(node.object_type_id)!.type, node.unique_identities),
      );
      const scores = scoreQuery(concepts.flat(), query.concepts, instances, judgements);
      outcomes.push({ query, judgements, concepts: concepts[0], instances, scores, ms });
    }
    const health = await kn.health();
    return { network: set.network, search: health.details?.search as EvalRun['search'], outcomes };
  } finally {
    kn.onModuleDestroy();
    rmSync(root, { recursive: true, force: true });
  }
}

function typeRows(root: string, folder: string, types: EvalTypes): Map<string, TypeRows> {
  const loaded = new NetworkLoader(root).load(folder);
  return new Map(types.map((type) => [type.id, { type, rows: loaded.instances.get(type.id)?.rows ?? [] }]));
}

type EvalTypes = Awaited<ReturnType<EmbeddedKnowledgeNetwork['exportSchema']>>['object_types'];
