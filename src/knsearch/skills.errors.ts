import { specificError } from '../common/errors/error-codes';

/** find_skills errors: the network's skills object type is missing or lacks its required properties. */
export const SkillErrors = {
  SkillsObjectTypeNotFound: specificError('NotFound', 'SkillsObjectTypeNotFound', 404),
  SkillsObjectTypeInvalid: specificError('BadRequest', 'SkillsObjectTypeInvalid', 400),
} as const;
