import { Global, Module } from '@nestjs/common';
import { InputLimits } from './input-limits';

/** Makes `InputLimits` injectable in every feature. */
@Global()
@Module({ providers: [InputLimits], exports: [InputLimits] })
export class InputLimitsModule {}
