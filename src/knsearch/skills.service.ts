import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '../common/errors/app.exception';
import { isRecord } from '../common/http/json-inspection';
import { InputLimits, requireIdentifier } from '../common/limits/input-limits';
import { configToken, I18nConfig, KnConfig } from '../config';
import type { Language } from '../config/i18n.config';
import { KnErrors } from '../knowledge-network/knowledge-network.errors';
import { KnowledgeNetworkPort } from '../knowledge-network/knowledge-network.port';
import { InstanceIdentity, KnSchema, ObjectType } from '../knowledge-network/knowledge-network.types';
import { SKILLS_TOP_K } from './knsearch.limits';
import {
  bindingChains,
  chainPath,
  hopScore,
  identityCondition,
  MAX_SKILLS_PER_QUERY,
  namesObjectType,
  OBJECT_TYPE_PROPERTY,
  objectTypeCondition,
  skillsInSubgraph,
} from './skill-bindings';
import {
  INSTANCE_PRIORITY,
  matchSkillQuery,
  OBJECT_TYPE_PRIORITY,
  rankSkills,
  SkillCandidate,
  skillCandidate,
} from './skill-ranking';
import { SkillErrors } from './skills.errors';
import { FindSkillsEmptyReason, FindSkillsRequest, FindSkillsResponse } from './skills.types';

const REQUIRED_SKILL_PROPERTIES = ['skill_id', 'name'];
const SKILL_PROPERTIES = [...REQUIRED_SKILL_PROPERTIES, 'description', OBJECT_TYPE_PROPERTY];
const TEXT_TYPES = new Set(['string', 'text']);

/** What one find_skills call works on, once the request and the schema are checked. */
interface SkillScope {
  knId: string;
  objectType: ObjectType;
  skillsType: ObjectType;
  identities: InstanceIdentity[];
  chains: ReturnType<typeof bindingChains>;
}

/**
 * find_skills (upstream-contracts §2.10) over the KnowledgeNetworkPort only, so the embedded and the
 * KWeaver backends answer alike: skills are instances of the skills object type, bound to instances
 * through relations (priority 100) and to object types by their `object_type_id` property (priority 50).
 */
@Injectable()
export class SkillsService {
  constructor(
    private readonly kn: KnowledgeNetworkPort,
    private readonly limits: InputLimits,
    private readonly i18n: I18nService,
    @Inject(configToken('kn')) private readonly knConfig: KnConfig,
    @Inject(configToken('i18n')) private readonly i18nConfig: I18nConfig,
  ) {}

  /** `language`: the caller's (X-Language, then Accept-Language), for the message of an empty answer. */
  async findSkills(request: FindSkillsRequest, language?: Language): Promise<FindSkillsResponse> {
    const objectTypeId = requireIdentifier('object_type_id', request.object_type_id);
    this.limits.instanceIdentities('instance_identities', request.instance_identities);
    this.limits.searchText('skill_query', request.skill_query);
    const topK = Math.min(
      Math.max(Math.trunc(request.top_k ?? SKILLS_TOP_K.default), SKILLS_TOP_K.min),
      SKILLS_TOP_K.max,
    );
    const schema = await this.kn.exportSchema(request.kn_id);
    const scope = this.scope(request, schema, objectTypeId);
    const [byInstance, byObjectType] = await Promise.all([this.instanceSkills(scope), this.objectTypeSkills(scope)]);
    const recalled = [...byInstance, ...byObjectType];
    const query = request.skill_query?.trim();
    const matched = query ? matchSkillQuery(recalled, query) : recalled;
    const entries = rankSkills(matched, topK);
    if (entries.length > 0) return { entries };
    const reason = recalled.length > 0 ? 'skill_query_no_match' : await this.emptyReason(scope);
    return { entries, message: this.message(reason, language ?? this.i18nConfig.defaultLanguage) };
  }

  private scope(request: FindSkillsRequest, schema: KnSchema, objectTypeId: string): SkillScope {
    const skillsType = this.skillsType(request.kn_id, schema);
    const objectType = schema.object_types.find((type) => type.id === objectTypeId);
    if (!objectType) {
      throw new AppException(
        KnErrors.ObjectTypeNotFound,
        `object type "${objectTypeId}" not found in knowledge network "${request.kn_id}"`,
      );
    }
    const identities = (request.instance_identities ?? []).filter(
      (identity) => isRecord(identity) && Object.keys(identity).length > 0,
    );
    return {
      knId: request.kn_id,
      objectType,
      skillsType,
      identities,
      chains: bindingChains(schema, objectType.id, skillsType.id),
    };
  }

  /** The configured skills object type, which must exist and carry skill_id and name. */
  private skillsType(knId: string, schema: KnSchema): ObjectType {
    const id = this.knConfig.skillsObjectType;
    const type = schema.object_types.find((candidate) => candidate.id === id);
    if (!type) {
      throw new AppException(SkillErrors.SkillsObjectTypeNotFound, {
        kn_id: knId,
        skills_object_type_id: id,
        reason: `the knowledge network has no object type "${id}" (FIND_SKILLS_OBJECT_TYPE)`,
      });
    }
    const names = new Set(type.data_properties.map((property) => property.name));
    const missing = REQUIRED_SKILL_PROPERTIES.filter((name) => !names.has(name));
    if (missing.length > 0) {
      throw new AppException(SkillErrors.SkillsObjectTypeInvalid, {
        kn_id: knId,
        skills_object_type_id: id,
        reason: `the skills object type lacks required data properties: ${missing.join(', ')}`,
        missing_data_properties: missing,
      });
    }
    return type;
  }

  /** Instance mode: skills reachable from the given instances along the binding chains. */
  private async instanceSkills(scope: SkillScope): Promise<SkillCandidate[]> {
    if (scope.identities.length === 0 || scope.chains.length === 0) return [];
    const condition = identityCondition(scope.objectType, scope.identities);
    const paths = scope.chains.map((chain) =>
      chainPath(chain, scope.objectType.id, condition, scope.identities.length),
    );
    const result = await this.kn.querySubgraph(scope.knId, paths);
    return skillsInSubgraph(result, scope.skillsType.id).flatMap(
      ({ properties, hops }) => skillCandidate(properties, INSTANCE_PRIORITY, hopScore(hops)) ?? [],
    );
  }

  /** Object-type mode: skills whose `object_type_id` property names the object type. */
  private async objectTypeSkills(scope: SkillScope): Promise<SkillCandidate[]> {
    const property = scope.skillsType.data_properties.find((candidate) => candidate.name === OBJECT_TYPE_PROPERTY);
    if (!property || !TEXT_TYPES.has(property.type)) return [];
    const names = new Set(scope.skillsType.data_properties.map((candidate) => candidate.name));
    const { datas } = await this.kn.queryInstances(scope.knId, scope.skillsType.id, {
      condition: objectTypeCondition(scope.objectType.id),
      limit: MAX_SKILLS_PER_QUERY,
      properties: SKILL_PROPERTIES.filter((name) => names.has(name)),
    });
    return datas
      .filter((skill) => namesObjectType(skill[OBJECT_TYPE_PROPERTY], scope.objectType.id))
      .flatMap((skill) => skillCandidate(skill, OBJECT_TYPE_PRIORITY, 1) ?? []);
  }

  /** Why nothing was recalled, by mode: no skills at all, no binding for the type, or none in the asked scope. */
  private async emptyReason(scope: SkillScope): Promise<FindSkillsEmptyReason> {
    const any = await this.kn.queryInstances(scope.knId, scope.skillsType.id, { limit: 1 });
    if (any.datas.length === 0) return 'network_no_skills';
    if (scope.chains.length === 0) return 'object_type_no_binding';
    return scope.identities.length > 0 ? 'instance_no_match' : 'object_type_no_match';
  }

  /** The `find_skills.*` text in the caller's language. */
  private message(reason: FindSkillsEmptyReason, lang: Language): string {
    return String(this.i18n.translate(`find_skills.${reason}`, { lang }));
  }
}
