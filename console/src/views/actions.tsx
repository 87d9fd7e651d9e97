import { useState } from 'preact/hooks';
import { rest } from '../api';
import { t } from '../i18n';
import { Json } from './common';

export interface ActionTypeSummary {
  id: string;
  name: string;
  comment?: string;
  object_type_id: string;
  risk_level?: string;
  requires_approval?: boolean;
}

interface Verdict {
  kind: 'trigger' | 'pre';
  condition: string;
  holds: boolean;
  found?: string;
  message?: string;
}

interface DryRun {
  enabled: boolean;
  arguments: Record<string, unknown>;
  argument_errors: string[];
  conditions: Verdict[];
  requires_confirmation: boolean;
  would_run: boolean;
}

type Panel = { kind: 'definition' | 'execution'; value: unknown } | { kind: 'dry-run'; value: DryRun };

function DryRunResult({ run }: { run: DryRun }) {
  return (
    <div class="dry-run">
      <p class={run.would_run ? 'ok' : 'error'}>
        <strong>{run.would_run ? t('wouldRun') : t('wouldNotRun')}</strong>
        {run.requires_confirmation && <span class="tag">{t('requiresConfirmation')}</span>}
      </p>
      <h4>{t('conditions')}</h4>
      <ul class="conditions">
        {run.conditions.map((verdict) => (
          <li key={`${verdict.kind}:${verdict.condition}`} class={verdict.holds ? 'ok' : 'error'}>
            <span class="tag">{verdict.kind}</span> <code>{verdict.condition}</code> —{' '}
            {verdict.holds ? t('holds') : t('fails')}
            {verdict.found !== undefined && ` (${verdict.found})`}
            {verdict.message && <span class="muted"> {verdict.message}</span>}
          </li>
        ))}
      </ul>
      {run.argument_errors.length > 0 && (
        <>
          <h4>{t('argumentErrors')}</h4>
          <ul>
            {run.argument_errors.map((error) => (
              <li key={error} class="error">
                {error}
              </li>
            ))}
          </ul>
        </>
      )}
      <Json value={run.arguments} />
    </div>
  );
}

/** One action type for one instance: its definition, a dry run, and execution with the approval it needs. */
function ActionCard({ knId, action, identity }: { knId: string; action: ActionTypeSummary; identity: object }) {
  const [args, setArgs] = useState('{}');
  const [approved, setApproved] = useState(false);
  const [panel, setPanel] = useState<Panel>();
  const [error, setError] = useState('');
  const needsApproval = action.requires_approval === true || action.risk_level === 'high';
  const run = async (kind: Panel['kind']) => {
    setError('');
    try {
      const parsed = JSON.parse(args || '{}') as Record<string, unknown>;
      const base = { kn_id: knId, at_id: action.id };
      if (kind === 'definition') {
        setPanel({ kind, value: await rest('kn/get_action_info', { ...base, _instance_identity: identity }) });
      } else if (kind === 'dry-run') {
        const body = { ...base, _instance_identity: identity, arguments: parsed };
        setPanel({ kind, value: await rest<DryRun>('kn/check_action', body) });
      } else {
        const body = { ...base, _instance_identity: identity, arguments: parsed, confirm: approved };
        setPanel({ kind, value: await rest('kn/execute_action', body) });
      }
    } catch (failure) {
      setError(String((failure as Error).message));
    }
  };
  return (
    <div class="card action" data-action={action.id}>
      <h4>
        {action.name} <code>{action.id}</code>
        {action.risk_level && <span class="tag">{action.risk_level}</span>}
      </h4>
      {action.comment && <p class="muted">{action.comment}</p>}
      <label>
        {t('arguments')}
        <textarea rows={3} value={args} onInput={(event) => setArgs((event.target as HTMLTextAreaElement).value)} />
      </label>
      <div class="row">
        <button type="button" class="definition" onClick={() => void run('definition')}>
          {t('definition')}
        </button>
        <button type="button" class="dry-run-button" onClick={() => void run('dry-run')}>
          {t('dryRun')}
        </button>
        {needsApproval && (
          <label class="approve">
            <input type="checkbox" checked={approved} onChange={() => setApproved(!approved)} /> {t('confirmPrompt')}
          </label>
        )}
        <button
          type="button"
          class="danger"
          disabled={needsApproval && !approved}
          onClick={() => void run('execution')}
        >
          {t('execute')}
        </button>
      </div>
      {error && <p class="error">{error}</p>}
      {panel?.kind === 'dry-run' ? <DryRunResult run={panel.value} /> : panel && <Json value={panel.value} />}
    </div>
  );
}

export function ActionsPanel(props: { knId: string; actions: ActionTypeSummary[]; identity: object }) {
  if (props.actions.length === 0) return null;
  return (
    <section>
      <h3>{t('actions')}</h3>
      {props.actions.map((action) => (
        <ActionCard key={action.id} knId={props.knId} action={action} identity={props.identity} />
      ))}
    </section>
  );
}
