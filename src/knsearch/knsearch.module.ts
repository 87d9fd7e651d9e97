import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { KnSearchController } from './knsearch.controller';
import { KnSearchService } from './knsearch.service';

@Module({
  controllers: withPrivateTwins(KnSearchController),
  providers: [KnSearchService],
  exports: [KnSearchService],
})
export class KnSearchModule {}
