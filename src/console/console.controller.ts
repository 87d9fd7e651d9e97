import { Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { AppException } from '../common/errors/app.exception';
import { PublicErrors } from '../common/errors/error-codes';
import { OpenController } from '../common/http/route-prefixes';
import { ConsoleAsset, ConsoleAssets } from './console-assets';

/**
 * Only this origin's own scripts, styles and API: no inline script, no CDN, no framing. The graph
 * library sets element styles from script, which style-src does not govern.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The web console (`/console`): a static page and its bundled assets, open like the probes — the page
 * holds no data; every answer it shows comes from the public API with the caller's own token.
 */
@ApiExcludeController()
@SkipThrottle()
@OpenController('console')
export class ConsoleController {
  constructor(private readonly assets: ConsoleAssets) {}

  @Get()
  page(@Res() response: Response): void {
    send(response, this.assets.index(), 'index.html');
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() response: Response): void {
    send(response, this.assets.asset(name), name);
  }
}

function send(response: Response, asset: ConsoleAsset | undefined, name: string): void {
  if (!asset) throw new AppException(PublicErrors.NotFound, `console file ${name.slice(0, 128)} not found`);
  response.setHeader('Content-Security-Policy', CONSOLE_CSP);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'no-referrer');
  response.setHeader('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  response.type(asset.type).send(asset.body);
}
