import { z } from 'zod';
import { defineCapability } from '../../capabilities/capability';
import { KnowledgeNetworkPort } from '../../knowledge-network/knowledge-network.port';

const OUTPUT = z.looseObject({
  kn_id: z.string(),
  state: z.enum(['ready', 'building', 'failed']),
  hash: z.string(),
  storage: z.enum(['file', 'memory']),
  built_at: z.string(),
  build_ms: z.number(),
  reused: z.boolean(),
  error: z.string().optional(),
});

/**
 * `reload_network` and `POST /in/v1/kn/networks/{kn_id}/reload`: re-indexes a network from its folder and
 * swaps the new index in; queries keep running on the old one until then. Long (a full index build), so an
 * MCP client that holds tasks gets one at once. Cancelling stops the wait: a build already running still
 * finishes and is swapped in (a reload only ever serves what the folder holds), and reloads of one
 * folder coalesce, so repeated calls cost at most one more build.
 */
export const RELOAD_NETWORK = defineCapability({
  name: 'reload_network',
  title: { 'en-US': 'Reload a knowledge network', 'zh-Hans': '重新加载知识网络' },
  description: {
    'en-US': 'Operators only: re-index a network after its files changed; queries use the old index until the swap.',
    'zh-Hans': '仅供运维：网络文件变更后重新索引；换上新索引前查询仍用旧索引。',
  },
  governance: 'act',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  network: 'required',
  arguments: {},
  output: OUTPUT,
  text: 'json',
  doors: ['rest', 'mcp'],
  rest: { method: 'POST', path: 'kn/networks/:kn_id/reload', prefixes: 'private' },
  runsLong: true,
  service: KnowledgeNetworkPort,
  run: async (kn, _input, context) => {
    context.progress?.({ done: 0, total: 1, message: `re-indexing ${context.knId}` });
    const waited = kn.reloadNetwork(context.knId);
    const status = context.signal ? await untilAborted(waited, context.signal) : await waited;
    context.progress?.({ done: 1, total: 1, message: `index ${status.hash} ${status.state}` });
    return status;
  },
});

/** `work`, or a rejection as soon as `signal` aborts (the work itself goes on; see RELOAD_NETWORK). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error as Error);
      },
    );
  });
}
