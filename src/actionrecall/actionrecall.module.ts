import { Module } from '@nestjs/common';
import { ActionRecallController } from './actionrecall.controller';
import { ActionRecallService } from './actionrecall.service';

@Module({
  controllers: [ActionRecallController],
  providers: [ActionRecallService],
  exports: [ActionRecallService],
})
export class ActionRecallModule {}
