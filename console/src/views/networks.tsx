import { rest } from '../api';
import { t } from '../i18n';
import { href } from '../router';
import { useLoad } from '../use-load';
import { Show } from './common';

export interface NetworkSummary {
  id: string;
  name: string;
  comment?: string;
  object_type_count: number;
  relation_type_count: number;
  action_type_count: number;
  instance_count?: number;
}

/** The networks the caller may see (`GET /kn/networks`, filtered by the access policy). */
export function NetworksView() {
  const state = useLoad(() => rest<{ networks: NetworkSummary[] }>('kn/networks'), []);
  return (
    <section>
      <h2>{t('networks')}</h2>
      <Show state={state}>
        {({ networks }) => (
          <ul class="cards" id="networks">
            {networks.map((network) => (
              <li class="card" key={network.id}>
                <a href={href('kn', network.id)} data-kn={network.id}>
                  <strong>{network.name}</strong> <code>{network.id}</code>
                </a>
                {network.comment && <p class="muted">{network.comment}</p>}
                <p>
                  {t('objectTypes')} {network.object_type_count} · {t('relationTypes')} {network.relation_type_count} ·{' '}
                  {t('actionTypes')} {network.action_type_count}
                  {network.instance_count !== undefined && ` · ${network.instance_count} ${t('instances')}`}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </section>
  );
}
