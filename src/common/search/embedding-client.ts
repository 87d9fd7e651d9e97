import { AppException } from '../errors/app.exception';
import { UpstreamErrors } from '../errors/error-codes';
import { fetchFailureException } from '../http/fetch-failure';
import { readBoundedJson } from './bounded-json';
import { ChannelFailure } from './channel-failure';

/** Bytes one batch's answer may take: 64 vectors of 8,192 numbers as JSON text, with room to spare. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface EmbeddingSettings {
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
  batchSize?: number;
}

interface EmbeddingResponse {
  data?: { embedding?: unknown; index?: number }[];
}

/** OpenAI-compatible `POST {url}/v1/embeddings`, batched, each call with a deadline; the key never leaves the header. */
export class EmbeddingClient {
  private readonly endpoint: string;
  private readonly timeoutMs: number;
  private readonly batchSize: number;

  constructor(private readonly settings: EmbeddingSettings) {
    const base = settings.url.replace(/\/+$/, '');
    this.endpoint = base.endsWith('/v1') ? `${base}/embeddings` : `${base}/v1/embeddings`;
    this.timeoutMs = settings.timeoutMs ?? 30000;
    this.batchSize = settings.batchSize ?? 64;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      vectors.push(...(await this.batch(texts.slice(start, start + this.batchSize))));
    }
    return vectors;
  }

  private async batch(input: string[]): Promise<Float32Array[]> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.settings.apiKey) headers.authorization = `Bearer ${this.settings.apiKey}`;
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.settings.model, input }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      // No warning here: whoever catches it reports it (start-up, keyword-only fallback, the error presenter).
      throw fetchFailureException(error, { subject: 'embeddings endpoint', timeoutMs: this.timeoutMs });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new AppException(UpstreamErrors.BadResponse, `embeddings endpoint answered HTTP ${response.status}`);
    }
    const body = (await readBoundedJson(response, MAX_ANSWER_BYTES, 'embeddings endpoint')) as
      EmbeddingResponse | undefined;
    const data = body?.data;
    if (!Array.isArray(data)) throw new ChannelFailure('malformed', 'embeddings endpoint returned a malformed body');
    if (data.length !== input.length)
      throw new ChannelFailure(
        'count',
        `embeddings endpoint returned ${data.length} vectors for ${input.length} texts`,
      );
    return [...data]
      .sort((a, b) => (a?.index ?? 0) - (b?.index ?? 0))
      .map((item) => {
        if (!Array.isArray(item?.embedding) || item.embedding.length === 0)
          throw new ChannelFailure('malformed', 'embeddings endpoint returned an item without a vector');
        if (item.embedding.some((value) => typeof value !== 'number' || !Number.isFinite(value)))
          throw new ChannelFailure(
            'not_finite',
            'embeddings endpoint returned a vector that is not all finite numbers',
          );
        return Float32Array.from(item.embedding as number[]);
      });
  }
}
