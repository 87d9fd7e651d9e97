import { Module } from '@nestjs/common';
import { KnSearchService } from './knsearch.service';

@Module({
  providers: [KnSearchService],
  exports: [KnSearchService],
})
export class KnSearchModule {}
