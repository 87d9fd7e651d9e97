import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AccessPolicyService } from '../governance/access-policy.service';
import { AuditLog } from '../governance/audit-log';
import { AuditTrail } from '../governance/audit-trail';
import { LoggingModule } from '../logging/logging.module';
import { CapabilityCatalog } from './capability-catalog';
import { CapabilityGateway } from './capability-gateway';
import { RestDoor } from './capability-rest';

/**
 * The capability catalog and the one way its entries run (SPEC §12), with the access policy and the
 * audit stream every door shares. Feature modules list their capabilities with `capabilityBundle` and
 * their REST twins with `capabilityControllers`.
 */
@Global()
@Module({
  imports: [DiscoveryModule, LoggingModule],
  providers: [AccessPolicyService, AuditLog, AuditTrail, CapabilityCatalog, CapabilityGateway, RestDoor],
  exports: [AccessPolicyService, AuditLog, AuditTrail, CapabilityCatalog, CapabilityGateway, RestDoor],
})
export class CapabilitiesModule {}
