import { Module } from '@nestjs/common';
import { ConsoleAssets } from './console-assets';
import { ConsoleController } from './console.controller';

/** The web console at /console: the built page and assets, served by the service itself. */
@Module({
  controllers: [ConsoleController],
  providers: [ConsoleAssets],
})
export class ConsoleModule {}
