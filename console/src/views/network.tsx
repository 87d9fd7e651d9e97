import { useState } from 'preact/hooks';
import { Json as JsonValue, rest, tool } from '../api';
import { t } from '../i18n';
import { href } from '../router';
import { useLoad } from '../use-load';
import { Show } from './common';

interface Property {
  name: string;
  display_name?: string;
  type?: string;
  comment?: string;
}

interface TypeRecord {
  id: string;
  name: string;
  comment?: string;
  data_properties?: Property[];
  logic_properties?: Property[];
  primary_keys?: string[];
  source_object_type_id?: string;
  target_object_type_id?: string;
  object_type_id?: string;
  risk_level?: string;
  requires_approval?: boolean;
}

interface NetworkDetail {
  id: string;
  name: string;
  comment?: string;
  object_types: TypeRecord[];
  relation_types: TypeRecord[];
  action_types: TypeRecord[];
}

export interface SearchNode {
  object_type_id: string;
  object_type_name?: string;
  instance_name?: string;
  unique_identities: Record<string, unknown>;
  properties?: Record<string, unknown>;
  score?: number;
}

interface SearchAnswer {
  object_types: JsonValue[];
  relation_types: JsonValue[];
  action_types: JsonValue[];
  nodes?: SearchNode[];
  message?: string;
}

/** The fields whose text contains the query or one of its words: why a hit matched, in the caller's terms. */
export function matchedFields(record: Record<string, unknown>, query: string): string[] {
  const words = [query, ...query.split(/\s+/)].map((word) => word.trim().toLowerCase()).filter((word) => word);
  return Object.entries(record)
    .filter(([, value]) => typeof value === 'string' || Array.isArray(value))
    .filter(([, value]) => words.some((word) => JSON.stringify(value).toLowerCase().includes(word)))
    .map(([name]) => name);
}

export const instanceHref = (knId: string, node: { object_type_id: string; unique_identities: object }) =>
  href('kn', knId, 'ot', node.object_type_id, JSON.stringify(node.unique_identities));

function Search({ knId }: { knId: string }) {
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<{ query: string; value?: SearchAnswer; error?: string }>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const text = query.trim();
    if (!text) return;
    setAnswer({ query: text });
    try {
      setAnswer({ query: text, value: await rest<SearchAnswer>('kn/kn_search', { kn_id: knId, query: text }) });
    } catch (error) {
      setAnswer({ query: text, error: String((error as Error).message) });
    }
  };
  const concepts = answer?.value
    ? [...answer.value.object_types, ...answer.value.relation_types, ...answer.value.action_types]
    : [];
  return (
    <div class="card">
      <form class="row" onSubmit={submit}>
        <input
          id="search"
          placeholder={t('searchPlaceholder')}
          value={query}
          onInput={(event) => setQuery((event.target as HTMLInputElement).value)}
        />
        <button type="submit">{t('search')}</button>
      </form>
      {answer && !answer.value && !answer.error && <p class="muted">{t('loading')}</p>}
      {answer?.error && <p class="error">{answer.error}</p>}
      {answer?.value && (
        <div class="columns" id="search-results">
          <div>
            <h4>{t('concepts')}</h4>
            <ol class="hits">
              {concepts.map((concept, rank) => (
                <li key={`${String(concept.concept_type)}:${String(concept.concept_id ?? concept.id)}`}>
                  <span class="tag">{String(concept.concept_type ?? 'action_type')}</span>{' '}
                  <strong>{String(concept.concept_name ?? concept.name)}</strong> <span class="muted">#{rank + 1}</span>
                  <div class="why">
                    {t('why')}: {matchedFields(concept, answer.query).join(', ') || '—'}
                  </div>
                </li>
              ))}
            </ol>
          </div>
          <div>
            <h4>{t('instances')}</h4>
            {(answer.value.nodes ?? []).length === 0 && <p class="muted">{answer.value.message ?? t('noResults')}</p>}
            <ol class="hits" id="instance-hits">
              {(answer.value.nodes ?? []).map((node) => (
                <li key={`${node.object_type_id}:${JSON.stringify(node.unique_identities)}`}>
                  <span class="tag">{node.object_type_name ?? node.object_type_id}</span>{' '}
                  <a href={instanceHref(knId, node)} data-ot={node.object_type_id}>
                    {node.instance_name ?? JSON.stringify(node.unique_identities)}
                  </a>{' '}
                  <span class="muted">
                    {t('score')} {node.score?.toFixed(3) ?? '—'}
                  </span>
                  <div class="why">
                    {t('why')}: {matchedFields(node.properties ?? {}, answer.query).join(', ') || '—'}
                  </div>
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </div>
  );
}

const PropertyList = ({ properties }: { properties?: Property[] }) => (
  <ul class="properties">
    {(properties ?? []).map((property) => (
      <li key={property.name}>
        <code>{property.name}</code> {property.display_name} <span class="muted">{property.type}</span>
      </li>
    ))}
  </ul>
);

function Types({ detail }: { detail: NetworkDetail }) {
  return (
    <div class="columns">
      <div>
        <h3>{t('objectTypes')}</h3>
        {detail.object_types.map((type) => (
          <details class="card" key={type.id}>
            <summary>
              <strong>{type.name}</strong> <code>{type.id}</code>
            </summary>
            {type.comment && <p class="muted">{type.comment}</p>}
            <h4>{t('properties')}</h4>
            <PropertyList properties={type.data_properties} />
            {(type.logic_properties ?? []).length > 0 && <h4>{t('logicProperties')}</h4>}
            <PropertyList properties={type.logic_properties} />
          </details>
        ))}
      </div>
      <div>
        <h3>{t('relationTypes')}</h3>
        <ul class="card">
          {detail.relation_types.map((type) => (
            <li key={type.id}>
              <strong>{type.name}</strong> <code>{type.source_object_type_id}</code> →{' '}
              <code>{type.target_object_type_id}</code>
            </li>
          ))}
        </ul>
        <h3>{t('actionTypes')}</h3>
        <ul class="card">
          {detail.action_types.map((type) => (
            <li key={type.id}>
              <strong>{type.name}</strong> <code>{type.id}</code> ({type.object_type_id})
              {type.risk_level && <span class="tag">{type.risk_level}</span>}
              {type.requires_approval && <span class="tag">{t('requiresConfirmation')}</span>}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/** One network: a search box over it, and its types with their properties (`get_kn_detail`, every field). */
export function NetworkView({ knId }: { knId: string }) {
  const state = useLoad(() => tool<NetworkDetail>('get_kn_detail', { kn_id: knId, brief: false }), [knId]);
  return (
    <section>
      <Show state={state}>
        {(detail) => (
          <>
            <h2 id="network-title">
              {detail.name} <code>{detail.id}</code>
            </h2>
            {detail.comment && <p class="muted">{detail.comment}</p>}
            <Search knId={knId} />
            <Types detail={detail} />
          </>
        )}
      </Show>
    </section>
  );
}
