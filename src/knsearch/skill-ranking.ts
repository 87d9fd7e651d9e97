import { distinctWords, tokenize } from '../common/text/words';
import { SkillEntry } from './skills.types';

/** Mode priorities of upstream find_skills: instance-bound skills outrank skills bound to the object type. */
export const INSTANCE_PRIORITY = 100;
export const OBJECT_TYPE_PRIORITY = 50;

/** A recalled skill with how it was found: mode priority, then score within the mode. */
export interface SkillCandidate extends SkillEntry {
  priority: number;
  score: number;
}

// Query words this long may match inside a longer skill word (`crashloop` in `crashloopbackoff`).
const MIN_INFIX_LENGTH = 3;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number' ? String(value).trim() : undefined;

/** A skill instance's properties as a candidate; without a skill_id and a name it is no skill. */
export function skillCandidate(
  properties: Record<string, unknown>,
  priority: number,
  score: number,
): SkillCandidate | undefined {
  const skillId = text(properties.skill_id);
  const name = text(properties.name);
  if (!skillId || !name) return undefined;
  const description = text(properties.description);
  return { skill_id: skillId, name, ...(description ? { description } : {}), priority, score };
}

/**
 * Keeps the skills whose name or description shares words with `query`, each score boosted by the
 * share of the query's words it matched. A query without words filters nothing.
 */
export function matchSkillQuery(candidates: SkillCandidate[], query: string): SkillCandidate[] {
  const wanted = distinctWords(query);
  if (wanted.length === 0) return candidates;
  const matched: SkillCandidate[] = [];
  for (const candidate of candidates) {
    const words = new Set(tokenize(`${candidate.name} ${candidate.description ?? ''}`));
    const hits = wanted.filter(
      (word) => words.has(word) || (word.length >= MIN_INFIX_LENGTH && [...words].some((own) => own.includes(word))),
    ).length;
    if (hits > 0) matched.push({ ...candidate, score: candidate.score * (1 + hits / wanted.length) });
  }
  return matched;
}

const better = (a: SkillCandidate, b: SkillCandidate): boolean =>
  a.priority !== b.priority ? a.priority > b.priority : a.score > b.score;

/**
 * One entry per skill_id (the highest priority, then the highest score), ordered by priority desc,
 * score desc, skill_id asc, cut to `topK`.
 */
export function rankSkills(candidates: SkillCandidate[], topK: number): SkillEntry[] {
  const best = new Map<string, SkillCandidate>();
  for (const candidate of candidates) {
    const known = best.get(candidate.skill_id);
    if (!known || better(candidate, known)) best.set(candidate.skill_id, candidate);
  }
  return [...best.values()]
    .sort(
      (a, b) =>
        b.priority - a.priority ||
        b.score - a.score ||
        (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0),
    )
    .slice(0, topK)
    .map(({ skill_id, name, description }) => ({ skill_id, name, ...(description ? { description } : {}) }));
}
