import { Global, Module } from '@nestjs/common';
import { ErrorPresenter } from './error-presenter';

@Global()
@Module({ providers: [ErrorPresenter], exports: [ErrorPresenter] })
export class ErrorsModule {}
