import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import {
  KN_ID_ARGUMENT,
  RESPONSE_FORMAT_ARGUMENT,
  toolOutput,
  toolParameters,
} from '../../common/mcp/mcp-tool-arguments';
import { McpToolRunner, ToolResult } from '../../common/mcp/mcp-tool-runner';
import { readOnlyTool } from '../../common/mcp/tool-annotations';
import { INSTANCE_IDENTITY } from '../../knowledge-network/knowledge-network.schemas';
import { SKILLS_TOP_K } from '../knsearch.limits';
import { SkillsService } from '../skills.service';
import { SKILLS_OUTPUT } from './kn-tool-schemas';

const TOOL = 'find_skills';

const ARGUMENTS = z.looseObject({
  object_type_id: z.string().min(1).describe('Object type the skills are for, e.g. `patient` or `pod`'),
  instance_identities: z
    .array(INSTANCE_IDENTITY)
    .optional()
    .describe(
      'Instances of that object type (`_instance_identity` values from query_object_instance); ' +
        'skills bound to these instances through relations rank first',
    ),
  skill_query: z
    .string()
    .optional()
    .describe('Words the skill name or description must share, e.g. 随访 or triage; omit to get every bound skill'),
  top_k: z
    .number()
    .int()
    .min(SKILLS_TOP_K.min)
    .max(SKILLS_TOP_K.max)
    .default(SKILLS_TOP_K.default)
    .describe('How many skills to return'),
  kn_id: KN_ID_ARGUMENT,
  response_format: RESPONSE_FORMAT_ARGUMENT,
});

const DESCRIPTION =
  'Find the skills (reusable procedures or playbooks the network defines, e.g. 糖尿病随访 or a CrashLoopBackOff ' +
  'triage) that apply to an object type or to specific instances of it. Returns `entries[]` of ' +
  '{skill_id, name, description}, best first: skills bound to the given instances through relations, then skills ' +
  'bound to the whole object type; when none is found, `message` says why and what to try. Use it after ' +
  'kn_search/kn_schema_search identified the object type and query_object_instance returned the ' +
  '`_instance_identity` values; then follow the chosen skill, using query_instance_subgraph, ' +
  'resolve_logic_properties or get_action_info for the data and actions it needs.';

@McpController()
export class FindSkillsTool {
  constructor(
    private readonly runner: McpToolRunner,
    private readonly skills: SkillsService,
  ) {}

  @Tool({
    name: TOOL,
    description: DESCRIPTION,
    parameters: toolParameters(ARGUMENTS),
    outputSchema: toolOutput(SKILLS_OUTPUT),
    annotations: readOnlyTool('Find skills'),
  })
  call(@Payload() args: unknown, @Ctx() context: McpContext): Promise<ToolResult> {
    return this.runner.runForNetwork({ tool: TOOL, schema: ARGUMENTS, args, context }, (input, knId) =>
      this.skills.findSkills({
        kn_id: knId,
        object_type_id: input.object_type_id,
        instance_identities: input.instance_identities,
        skill_query: input.skill_query,
        top_k: input.top_k,
      }),
    );
  }
}
