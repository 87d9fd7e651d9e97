import { Inject, Injectable } from '@nestjs/common';
import { configToken, KbConfig } from '../../config';
import { KbSearchService } from '../kbsearch.service';

/** What the knowledge-base capabilities run with: the service and the configured connection defaults. */
@Injectable()
export class KbDoor {
  constructor(
    readonly service: KbSearchService,
    @Inject(configToken('kb')) readonly config: KbConfig,
  ) {}
}

/** The connection headers both knowledge-base routes read (SPEC §9). */
export const KB_CONNECTION_HEADERS = [
  { name: 'X-WeKnora-Api-Key', description: 'WeKnora API key (else WEKNORA_API_KEY)' },
  {
    name: 'X-WeKnora-KB-IDs',
    description: 'Comma-separated knowledge-base ids to search (else WEKNORA_KB_IDS, else all)',
  },
] as const;
