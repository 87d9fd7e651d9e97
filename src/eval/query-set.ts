import { z } from 'zod';

/** The seven kinds of question a query set covers; a file may use any subset. */
export const QUERY_KINDS = [
  'exact',
  'multi_keyword',
  'paraphrase',
  'cross_language',
  'abbreviation',
  'long_question',
  'typo_variant',
] as const;

const text = z.string().min(1);
const oneOrMany = z.union([text, z.array(text).min(1)]);

/**
 * Which instances of one object type are relevant, and how much (3 = the answer, 2 = clearly relevant,
 * 1 = related): by primary key (`ids`), by a property that equals or contains a value (`field` with
 * `equals` / `contains`, any of several values), by any text property containing a value (`text`), or by
 * the text properties together containing every value (`textAll`).
 */
const ruleSchema = z
  .object({
    type: text,
    grade: z.number().int().min(1).max(3),
    ids: z.array(text).min(1).optional(),
    field: text.optional(),
    equals: oneOrMany.optional(),
    contains: oneOrMany.optional(),
    text: oneOrMany.optional(),
    textAll: z.array(text).min(1).optional(),
  })
  .strict()
  .refine((rule) => [rule.ids, rule.field, rule.text, rule.textAll].filter((part) => part !== undefined).length === 1, {
    message: 'a rule selects by exactly one of ids, field, text or textAll',
  })
  .refine((rule) => rule.field === undefined || (rule.equals === undefined) !== (rule.contains === undefined), {
    message: 'a field rule needs exactly one of equals or contains',
  });

const querySchema = z
  .object({
    id: text,
    kind: z.enum(QUERY_KINDS),
    query: text,
    /** Object, relation or action type ids any of which among the first three counts as a hit. */
    concepts: z.array(text).min(1),
    relevant: z.array(ruleSchema).default([]),
    note: z.string().optional(),
  })
  .strict();

export const querySetSchema = z
  .object({
    network: text,
    description: z.string().optional(),
    queries: z.array(querySchema).min(1),
  })
  .strict();

export type LabelRule = z.infer<typeof ruleSchema>;
export type EvalQuery = z.infer<typeof querySchema>;
export type QuerySet = z.infer<typeof querySetSchema>;

/** Parses a query file's JSON, naming the first problem (`queries.3.kind: …`). */
export function parseQuerySet(json: unknown): QuerySet {
  const parsed = querySetSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const ids = new Set<string>();
  for (const query of parsed.data.queries) {
    if (ids.has(query.id)) throw new Error(`queries: id "${query.id}" is used twice`);
    ids.add(query.id);
  }
  return parsed.data;
}
