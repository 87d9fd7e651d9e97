import { Module } from '@nestjs/common';
import { capabilityBundle } from '../capabilities/capability-catalog';
import { capabilityControllers } from '../capabilities/capability-rest';
import { RECENT_AUDIT } from './recent-audit.capability';

/** The governance capabilities a person uses to watch the service: its recent audit lines. */
@Module({
  controllers: capabilityControllers('governance', [RECENT_AUDIT]),
  providers: [capabilityBundle('governance', [RECENT_AUDIT])],
})
export class GovernanceModule {}
