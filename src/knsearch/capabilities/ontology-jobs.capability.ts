import { z } from 'zod';
import { defineCapability, READ_ONLY } from '../../capabilities/capability';
import { requiredText } from '../../common/http/required-text';
import { KnSearchService } from '../knsearch.service';

/**
 * KWeaver ontology build jobs (upstream-contracts §2.11): REST on the private prefix only, for the
 * platform. The embedded backend has no build jobs and answers 501 naming KN_BACKEND.
 */
export const FULL_BUILD_ONTOLOGY = defineCapability({
  name: 'full_build_ontology',
  title: { 'en-US': 'Start a full ontology build', 'zh-Hans': '启动本体全量构建' },
  description: {
    'en-US': 'Start a full ontology build job in bkn-backend (KN_BACKEND=kweaver).',
    'zh-Hans': '在 bkn-backend 中启动一次本体全量构建任务（KN_BACKEND=kweaver）。',
  },
  governance: 'act',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  network: 'required',
  arguments: { name: requiredText().describe('Name of the build job') },
  output: z.looseObject({ id: z.string() }),
  doors: ['rest'],
  rest: { method: 'POST', path: 'kn/full_build_ontology', prefixes: 'private', status: 201 },
  service: KnSearchService,
  run: (knSearch, input, context) => knSearch.buildOntology(context.knId, input.name),
});

export const FULL_ONTOLOGY_BUILDING_STATUS = defineCapability({
  name: 'full_ontology_building_status',
  title: { 'en-US': 'Ontology build status', 'zh-Hans': '本体构建状态' },
  description: {
    'en-US': 'Whether the latest 50 full build jobs have completed (KN_BACKEND=kweaver).',
    'zh-Hans': '最近 50 个全量构建任务是否都已完成（KN_BACKEND=kweaver）。',
  },
  governance: 'read',
  annotations: READ_ONLY,
  network: 'required',
  arguments: {},
  output: z.looseObject({ kn_id: z.string(), state: z.string(), state_detail: z.string() }),
  doors: ['rest'],
  rest: { method: 'GET', path: 'kn/full_ontology_building_status', prefixes: 'private' },
  service: KnSearchService,
  run: (knSearch, _input, context) => knSearch.ontologyBuildStatus(context.knId),
});
