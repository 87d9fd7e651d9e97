import { HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PrivateController } from '../common/http/route-prefixes';
import { KnowledgeNetworkPort } from './knowledge-network.port';
import { NetworkIndexStatus } from './knowledge-network.types';

/** Operations on the embedded store's indexes; in-cluster only (a reload costs a full index build). */
@ApiTags('knowledge network')
@PrivateController('kn/networks')
export class NetworkReloadController {
  constructor(private readonly kn: KnowledgeNetworkPort) {}

  @Post(':kn_id/reload')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Re-index a network from its folder and swap the new index in; queries keep running on the old one until then',
  })
  reload(@Param('kn_id') knId: string): Promise<NetworkIndexStatus> {
    return this.kn.reloadNetwork(knId);
  }
}
