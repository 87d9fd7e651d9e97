import { call, Json as JsonRecord, rest } from '../api';
import { t } from '../i18n';
import { useLoad } from '../use-load';
import { Json, Show } from './common';

interface AuditLine {
  time: string;
  account_id: string;
  account_type: string;
  door: string;
  capability: string;
  kn_id?: string;
  decision: string;
  outcome: string;
  error_code?: string;
  duration_ms: number;
}

interface Operator {
  status: string;
  checks: Record<string, JsonRecord>;
  networks: JsonRecord[];
  audit: { scope: 'own' | 'all'; lines: AuditLine[] };
}

/** `/health` is open (probes read it); the networks shown are only those the caller's policy lets it see. */
async function load(): Promise<Operator> {
  const [health, visible, audit] = await Promise.all([
    // A failing check answers 503 with the same body: show it rather than an error.
    fetch('/health', { headers: { accept: 'application/json' } }).then(
      (response) => response.json() as Promise<JsonRecord>,
    ),
    rest<{ networks: { id: string }[] }>('kn/networks'),
    call<Operator['audit']>('/api/agent-retrieval/v1/audit/recent'),
  ]);
  const checks = (health.details ?? {}) as Record<string, JsonRecord>;
  const ids = new Set(visible.networks.map((network) => network.id));
  const kn = checks.knowledge_network ?? {};
  const networks = ((kn.networks ?? []) as JsonRecord[]).filter((network) => ids.has(String(network.id)));
  return { status: String(health.status), checks, networks, audit };
}

export function OperatorView() {
  const state = useLoad(load, []);
  return (
    <section>
      <h2>{t('operator')}</h2>
      <p>
        <a href="/metrics">{t('metrics')}</a>
      </p>
      <Show state={state}>
        {({ status, checks, networks, audit }) => (
          <>
            <div class="columns">
              <div class="card" id="health">
                <h3>
                  {t('health')}: <span class={status === 'ok' ? 'ok' : 'error'}>{status}</span>
                </h3>
                <ul>
                  {Object.entries(checks).map(([name, check]) => (
                    <li key={name}>
                      <code>{name}</code>{' '}
                      <span class={check.status === 'up' ? 'ok' : 'error'}>{String(check.status)}</span>
                    </li>
                  ))}
                </ul>
              </div>
              <div class="card" id="index-state">
                <h3>{t('indexState')}</h3>
                <table>
                  <tbody>
                    {networks.map((network) => (
                      <tr key={String(network.id)}>
                        <th>{String(network.id)}</th>
                        <td>
                          {String(network.instances ?? '—')} {t('instances')}
                        </td>
                        <td>{String(network.search ?? '')}</td>
                        <td class="error">{String(network.embedding_error ?? '')}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <h3>{t('ckb')}</h3>
                <Json value={checks.ckb ?? {}} />
              </div>
            </div>
            <div class="card" id="audit">
              <h3>
                {t('audit')} <span class="muted">({audit.scope === 'all' ? t('auditAll') : t('auditOwn')})</span>
              </h3>
              <table>
                <tbody>
                  {audit.lines.map((line, index) => (
                    <tr key={index}>
                      <td>{line.time}</td>
                      <td>{line.account_id}</td>
                      <td>{line.door}</td>
                      <td>
                        <code>{line.capability}</code>
                      </td>
                      <td>{line.kn_id ?? ''}</td>
                      <td>{line.decision}</td>
                      <td class={line.outcome === 'ok' ? 'ok' : 'error'}>{line.outcome}</td>
                      <td>{line.error_code ?? ''}</td>
                      <td>{line.duration_ms} ms</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </Show>
    </section>
  );
}
