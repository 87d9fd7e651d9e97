import { ParsedSchema } from './bkn/bkn-definitions';
import { GlossaryEntries } from './glossary';

/** One object type's instances, typed by its Data Properties, in CSV order. */
export interface InstanceRows {
  file?: string;
  rows: Record<string, unknown>[];
}

/**
 * A parsed network folder ready to be indexed, its instance data and relation views read as they are
 * iterated (once, in schema order): see `NetworkLoader.stream`.
 */
export interface NetworkSource {
  folder: string;
  schema: ParsedSchema;
  instances: Map<string, { file?: string; rows: Iterable<Record<string, unknown>> }>;
  /** data_view relation id → view rows (raw strings, joined with affinity conversion in SQL). */
  views: Map<string, Iterable<Record<string, string>>>;
  warnings: string[];
  /** One message per data file lacking declared columns: a warning, or under KN_STRICT a failed start. */
  missingColumns: string[];
  /** Synonyms, abbreviations and translations from the folder's optional glossary.yaml. */
  glossary?: GlossaryEntries;
}

/** A network folder with its instance data and relation views read into memory. */
export interface LoadedNetwork extends NetworkSource {
  instances: Map<string, InstanceRows>;
  views: Map<string, Record<string, string>[]>;
}
