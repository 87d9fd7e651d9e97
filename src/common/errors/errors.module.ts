import { Global, Module } from '@nestjs/common';
import { ErrorPresenter } from './error-presenter';
import { ErrorShapes } from './error-shapes';

@Global()
@Module({ providers: [ErrorPresenter, ErrorShapes], exports: [ErrorPresenter, ErrorShapes] })
export class ErrorsModule {}
