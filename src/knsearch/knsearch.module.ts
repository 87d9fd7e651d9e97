import { Module } from '@nestjs/common';
import { KnSearchController } from './knsearch.controller';
import { KnSearchService } from './knsearch.service';

@Module({
  controllers: [KnSearchController],
  providers: [KnSearchService],
  exports: [KnSearchService],
})
export class KnSearchModule {}
