import { Module } from '@nestjs/common';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { capabilityControllers } from '../capabilities/capability-rest';
import { KN_CAPABILITIES } from './capabilities';
import { KnSearchService } from './knsearch.service';
import { SkillsService } from './skills.service';

/** Knowledge-network search (SPEC §3, seed 002): its capabilities, served at every door, over one service. */
@Module({
  controllers: capabilityControllers('knowledge network', KN_CAPABILITIES),
  providers: [KnSearchService, SkillsService, capabilityBundle('kn', KN_CAPABILITIES)],
  exports: [KnSearchService, SkillsService],
})
export class KnSearchModule {}
