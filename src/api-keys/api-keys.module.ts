import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

/**
 * API key administration: the private admin routes over ApiKeysService. The store and the checking of
 * keys on every public route belong to the global AuthModule (common/auth/api-keys).
 */
@Module({
  controllers: [ApiKeysController],
  providers: [ApiKeysService],
})
export class ApiKeysModule {}
