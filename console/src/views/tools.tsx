import { call } from '../api';
import { t } from '../i18n';
import { useLoad } from '../use-load';
import { Json, Show } from './common';

interface FunctionTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown };
}

/** The tools this account may call (`GET /v1/tools`, the access policy applied), each as an agent sees it. */
export function ToolsView() {
  const state = useLoad(() => call<{ data: FunctionTool[] }>('/v1/tools'), []);
  return (
    <section>
      <h2>{t('tools')}</h2>
      <Show state={state}>
        {({ data }) => (
          <ul class="cards" id="tools">
            {data.map((tool) => (
              <li class="card" key={tool.function.name} data-tool={tool.function.name}>
                <details>
                  <summary>
                    <code>{tool.function.name}</code>
                  </summary>
                  <p class="muted">{tool.function.description}</p>
                  <Json value={tool.function.parameters} />
                </details>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </section>
  );
}
