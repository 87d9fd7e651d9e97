import { Body, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { KnId } from '../common/http/kn-id';
import { PrivateController } from '../common/http/route-prefixes';
import { FullBuildOntologyDto } from './dto/full-build-ontology.dto';
import { KnSearchService, OntologyBuildStatus } from './knsearch.service';

/**
 * KWeaver ontology build jobs (upstream-contracts §2.11): private prefix only. The embedded backend has
 * no build jobs and answers 501 naming KN_BACKEND.
 */
@ApiTags('knowledge network')
@PrivateController('kn')
export class OntologyJobsController {
  constructor(private readonly service: KnSearchService) {}

  @Post('full_build_ontology')
  @HttpCode(201)
  @ApiOperation({ summary: 'Start a full ontology build job in bkn-backend (KN_BACKEND=kweaver)' })
  buildOntology(@Body() body: FullBuildOntologyDto, @KnId() knId: string): Promise<{ id: string }> {
    return this.service.buildOntology(knId, body.name);
  }

  @Get('full_ontology_building_status')
  @ApiOperation({ summary: 'Whether the latest 50 full build jobs have completed (KN_BACKEND=kweaver)' })
  buildStatus(@KnId() knId: string): Promise<OntologyBuildStatus> {
    return this.service.ontologyBuildStatus(knId);
  }
}
