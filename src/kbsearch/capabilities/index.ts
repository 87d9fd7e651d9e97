import { WEKNORA_LIST_KNOWLEDGE_BASES } from './weknora-list-knowledge-bases.capability';
import { WEKNORA_SEARCH } from './weknora-search.capability';

export const KB_CAPABILITIES = [WEKNORA_SEARCH, WEKNORA_LIST_KNOWLEDGE_BASES];
