import { useRef, useState } from 'preact/hooks';
import { call, Json as JsonRecord, rest, streamChat } from '../api';
import { t } from '../i18n';
import { useLoad } from '../use-load';
import { Show } from './common';

interface Line {
  kind: 'user' | 'assistant' | 'tool_call' | 'tool_result' | 'error';
  text: string;
  detail?: unknown;
  /** A tool call's index in its turn, which later argument deltas name. */
  index?: number;
}

interface Setup {
  models: string[];
  networks: string[];
}

async function setup(): Promise<Setup> {
  const [models, networks] = await Promise.all([
    call<{ data: { id: string }[] }>('/v1/models').catch(() => ({ data: [] })),
    rest<{ networks: { id: string }[] }>('kn/networks'),
  ]);
  return { models: models.data.map((model) => model.id), networks: networks.networks.map((network) => network.id) };
}

type CallDelta = { index?: number; function?: { name?: string; arguments?: string } };

/** A tool call as it streams: a delta with a name opens it, later deltas of the same index add arguments. */
function applyToolCallDeltas(lines: Line[], deltas: CallDelta[]): Line[] {
  const next = [...lines];
  for (const delta of deltas) {
    if (delta.function?.name) {
      next.push({
        kind: 'tool_call',
        text: delta.function.name,
        detail: delta.function.arguments ?? '',
        index: delta.index,
      });
      continue;
    }
    const at = next.findLastIndex((line) => line.kind === 'tool_call' && line.index === delta.index);
    if (at >= 0) next[at] = { ...next[at], detail: String(next[at].detail ?? '') + (delta.function?.arguments ?? '') };
  }
  return next;
}

const MAX_RESULT_TEXT = 4000;

/** Applies one stream frame to the transcript: text deltas, tool calls as they are built, tool results. */
function applyFrame(lines: Line[], frame: JsonRecord): Line[] {
  if (frame.type === 'tool_result') {
    const result = (frame.result ?? {}) as { success?: boolean; content?: unknown };
    const content = typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
    const text = content.length > MAX_RESULT_TEXT ? `${content.slice(0, MAX_RESULT_TEXT)}…` : content;
    return [
      ...lines,
      { kind: 'tool_result', text: `${String(frame.name)} (${result.success ? 'ok' : 'failed'})`, detail: text },
    ];
  }
  const choice = (frame.choices as JsonRecord[] | undefined)?.[0];
  if (frame.type === 'tool_call' && !choice) {
    const delta = frame.delta as { tool_calls?: CallDelta[] } | undefined;
    return applyToolCallDeltas(lines, delta?.tool_calls ?? []);
  }
  const delta = choice?.delta as JsonRecord | undefined;
  const text = typeof delta?.content === 'string' ? delta.content : '';
  if (!text) return lines;
  const last = lines[lines.length - 1];
  if (last?.kind === 'assistant') return [...lines.slice(0, -1), { ...last, text: last.text + text }];
  return [...lines, { kind: 'assistant', text }];
}

/** A conversation with the service's tools; each tool call, its arguments and its result shown as they stream. */
export function ChatView() {
  const state = useLoad(setup, []);
  return (
    <section>
      <h2>{t('chat')}</h2>
      <Show state={state}>
        {(value) => (value.models.length === 0 ? <p class="muted">{t('noModel')}</p> : <Playground {...value} />)}
      </Show>
    </section>
  );
}

function Playground({ models, networks }: Setup) {
  const [model, setModel] = useState(models[0]);
  const [knId, setKnId] = useState(networks[0] ?? '');
  const [input, setInput] = useState('');
  const [lines, setLines] = useState<Line[]>([]);
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController>();
  const send = async (event: Event) => {
    event.preventDefault();
    if (!input.trim() || busy) return;
    const history = lines.filter((line) => line.kind === 'user' || line.kind === 'assistant');
    const messages = [...history, { kind: 'user', text: input }].map((line) => ({
      role: line.kind === 'user' ? 'user' : 'assistant',
      content: line.text,
    }));
    setLines((previous) => [...previous, { kind: 'user', text: input }]);
    setInput('');
    setBusy(true);
    abort.current = new AbortController();
    try {
      const body = { model, messages, kn_id: knId };
      await streamChat(body, (frame) => setLines((previous) => applyFrame(previous, frame)), abort.current.signal);
    } catch (error) {
      setLines((previous) => [...previous, { kind: 'error', text: String((error as Error).message) }]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="card">
      <div class="row">
        <label>
          {t('model')}{' '}
          <select value={model} onChange={(event) => setModel((event.target as HTMLSelectElement).value)}>
            {models.map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
        <label>
          {t('network')}{' '}
          <select value={knId} onChange={(event) => setKnId((event.target as HTMLSelectElement).value)}>
            {networks.map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
      </div>
      <ol class="transcript" id="transcript">
        {lines.map((line, index) => (
          <li key={index} class={line.kind}>
            <span class="tag">
              {line.kind === 'tool_call' ? t('toolCall') : line.kind === 'tool_result' ? t('toolResult') : line.kind}
            </span>{' '}
            {line.text}
            {line.detail !== undefined && <pre class="json">{String(line.detail)}</pre>}
          </li>
        ))}
      </ol>
      <form class="row" onSubmit={send}>
        <input id="chat-input" value={input} onInput={(event) => setInput((event.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy}>
          {t('send')}
        </button>
      </form>
    </div>
  );
}
