import { Module } from '@nestjs/common';
import { ActionRecallService } from './actionrecall.service';

@Module({
  providers: [ActionRecallService],
  exports: [ActionRecallService],
})
export class ActionRecallModule {}
