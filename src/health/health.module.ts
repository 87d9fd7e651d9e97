import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health-registry';

@Global()
@Module({
  imports: [TerminusModule.forRoot({ logger: false, errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [HealthRegistry],
  exports: [HealthRegistry, TerminusModule],
})
export class HealthModule {}
