import { Controller, Get } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ROUTE_ACCESS } from './route-access';
import { ApiController, OpenController, PrivateController, PublicController, withPrivateTwins } from './route-prefixes';

@ApiController('kn')
class BothPrefixes {
  @Get('networks')
  networks(): string {
    return 'ok';
  }
}

@PublicController('code')
class PublicOnly {}

@PrivateController('tool-box')
class PrivateOnly {}

@OpenController('health')
class Probes {}

@Controller('plain')
class Undeclared {}

describe('route prefixes and access metadata', () => {
  it('declares one access class per controller', () => {
    expect(Reflect.getMetadata(ROUTE_ACCESS, PublicOnly)).toBe('public');
    expect(Reflect.getMetadata(PATH_METADATA, PublicOnly)).toEqual(['/api/agent-retrieval/v1/code']);
    expect(Reflect.getMetadata(ROUTE_ACCESS, PrivateOnly)).toBe('private');
    expect(Reflect.getMetadata(PATH_METADATA, PrivateOnly)).toEqual(['/api/agent-retrieval/in/v1/tool-box']);
    expect(Reflect.getMetadata(ROUTE_ACCESS, Probes)).toBe('open');
    expect(Reflect.getMetadata(ROUTE_ACCESS, Undeclared)).toBeUndefined();
  });

  it('serves an ApiController publicly and adds a private twin with the same handlers', () => {
    const [publicClass, twin] = withPrivateTwins(BothPrefixes, PublicOnly);
    expect(publicClass).toBe(BothPrefixes);
    expect(Reflect.getMetadata(ROUTE_ACCESS, BothPrefixes)).toBe('public');
    expect(Reflect.getMetadata(PATH_METADATA, BothPrefixes)).toEqual(['/api/agent-retrieval/v1/kn']);
    expect(Reflect.getMetadata(ROUTE_ACCESS, twin)).toBe('private');
    expect(Reflect.getMetadata(PATH_METADATA, twin)).toEqual(['/api/agent-retrieval/in/v1/kn']);
    expect(twin.name).toBe('BothPrefixesPrivate');
    expect(Object.getPrototypeOf(twin)).toBe(BothPrefixes);
    expect(withPrivateTwins(BothPrefixes, PublicOnly)).toHaveLength(3);
    expect(withPrivateTwins(BothPrefixes)[1]).toBe(twin);
  });
});
