import { Module } from '@nestjs/common';
import { McpToolRunner } from './mcp-tool-runner';

/** Import this in any feature module that declares `@McpController` tool classes. */
@Module({ providers: [McpToolRunner], exports: [McpToolRunner] })
export class McpToolingModule {}
