import { useState } from 'preact/hooks';
import { rest, tool } from '../api';
import { t } from '../i18n';
import { href } from '../router';
import { useLoad } from '../use-load';
import { ActionsPanel, ActionTypeSummary } from './actions';
import { Json, Show } from './common';
import { SubgraphView } from './graph';

interface LogicProperty {
  type?: string;
  parameters?: { name: string; value_from?: string; value?: unknown; comment?: string }[];
}

interface Loaded {
  instance: Record<string, unknown>;
  objectTypeName: string;
  actions: ActionTypeSummary[];
}

const isLogic = (value: unknown): value is LogicProperty =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'parameters' in value;

async function load(knId: string, otId: string, identity: Record<string, unknown>): Promise<Loaded> {
  const condition = {
    operation: 'and',
    sub_conditions: Object.entries(identity).map(([field, value]) => ({
      field,
      operation: '==',
      value,
      value_from: 'const',
    })),
  };
  const [found, detail] = await Promise.all([
    rest<{ datas: Record<string, unknown>[] }>('kn/query_object_instance', {
      kn_id: knId,
      ot_id: otId,
      condition,
      limit: 1,
      include_logic_params: true,
    }),
    tool<{ object_types: { id: string; name: string }[]; action_types: ActionTypeSummary[] }>('get_kn_detail', {
      kn_id: knId,
      brief: false,
    }),
  ]);
  if (!found.datas[0]) throw new Error(`${otId} ${JSON.stringify(identity)}: ${t('noResults')}`);
  return {
    instance: found.datas[0],
    objectTypeName: detail.object_types.find((type) => type.id === otId)?.name ?? otId,
    actions: detail.action_types.filter((action) => action.object_type_id === otId),
  };
}

function LogicProperties(props: { knId: string; otId: string; identity: object; logic: [string, LogicProperty][] }) {
  const [context, setContext] = useState('{}');
  const [values, setValues] = useState<unknown>();
  const [error, setError] = useState('');
  if (props.logic.length === 0) return null;
  const resolve = async () => {
    setError('');
    try {
      const names = props.logic.map(([name]) => name);
      setValues(
        await rest('kn/logic-property-resolver', {
          kn_id: props.knId,
          ot_id: props.otId,
          query: names.join(', '),
          _instance_identities: [props.identity],
          properties: names,
          additional_context: context,
        }),
      );
    } catch (failure) {
      setError(String((failure as Error).message));
    }
  };
  return (
    <div class="card">
      <h3>{t('logicProperties')}</h3>
      <ul>
        {props.logic.map(([name, property]) => (
          <li key={name}>
            <code>{name}</code> <span class="muted">{property.type}</span>
            <ul class="properties">
              {(property.parameters ?? []).map((parameter) => (
                <li key={parameter.name}>
                  <code>{parameter.name}</code> {parameter.value_from}
                  {parameter.value !== undefined && ` = ${JSON.stringify(parameter.value)}`}{' '}
                  <span class="muted">{parameter.comment}</span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <div class="row">
        <input value={context} onInput={(event) => setContext((event.target as HTMLInputElement).value)} />
        <button type="button" onClick={() => void resolve()}>
          {t('logicProperties')} ▶
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      {values !== undefined && <Json value={values} />}
    </div>
  );
}

/** One instance: its properties, its logic properties, its subgraph and the actions bound to its type. */
export function InstanceView({ knId, otId, identity: identityText }: { knId: string; otId: string; identity: string }) {
  const identity = JSON.parse(identityText) as Record<string, unknown>;
  const state = useLoad(() => load(knId, otId, identity), [knId, otId, identityText]);
  return (
    <section>
      <p>
        <a href={href('kn', knId)}>← {knId}</a>
      </p>
      <Show state={state}>
        {({ instance, objectTypeName, actions }) => {
          const entries = Object.entries(instance).filter(([name]) => !name.startsWith('_'));
          const logic = entries.filter((entry): entry is [string, LogicProperty] => isLogic(entry[1]));
          const plain = entries.filter(([, value]) => !isLogic(value));
          const label = String(instance._display ?? identityText);
          return (
            <>
              <h2 id="instance-title">
                <span class="tag">{objectTypeName}</span> {label}
              </h2>
              <div class="columns">
                <div class="card">
                  <h3>{t('properties')}</h3>
                  <table class="properties" id="instance-properties">
                    <tbody>
                      {plain.map(([name, value]) => (
                        <tr key={name}>
                          <th>{name}</th>
                          <td>{typeof value === 'string' ? value : JSON.stringify(value)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                <LogicProperties knId={knId} otId={otId} identity={identity} logic={logic} />
              </div>
              <SubgraphView knId={knId} start={{ id: '', objectTypeId: otId, objectTypeName, label, identity }} />
              <ActionsPanel knId={knId} actions={actions} identity={identity} />
            </>
          );
        }}
      </Show>
    </section>
  );
}
