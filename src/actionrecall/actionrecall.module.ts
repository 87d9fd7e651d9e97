import { Module } from '@nestjs/common';
import { withPrivateTwins } from '../common/http/route-prefixes';
import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';

@Module({
  controllers: withPrivateTwins(ActionRecallController),
  providers: [ActionRecallService],
  exports: [ActionRecallService],
})
export class ActionRecallModule {}
