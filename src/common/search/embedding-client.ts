import { answerSlot, ChannelFailure } from './channel-failure';
import { ModelEndpoint } from './model-endpoint';

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
  private readonly endpoint: ModelEndpoint;
  private readonly batchSize: number;

  constructor(private readonly settings: EmbeddingSettings) {
    const timeoutMs = settings.timeoutMs ?? 30000;
    this.endpoint = new ModelEndpoint({
      url: settings.url,
      path: 'embeddings',
      subject: 'embeddings endpoint',
      apiKey: settings.apiKey,
      timeoutMs,
      maxAnswerBytes: MAX_ANSWER_BYTES,
    });
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
    const body = (await this.endpoint.post({ model: this.settings.model, input })) as EmbeddingResponse | undefined;
    const data = body?.data;
    if (!Array.isArray(data)) throw new ChannelFailure('malformed', 'embeddings endpoint returned a malformed body');
    if (data.length !== input.length)
      throw new ChannelFailure(
        'count',
        `embeddings endpoint returned ${data.length} vectors for ${input.length} texts`,
      );
    return inInputOrder(data).map((item) => {
      if (!Array.isArray(item?.embedding) || item.embedding.length === 0)
        throw new ChannelFailure('malformed', 'embeddings endpoint returned an item without a vector');
      if (item.embedding.some((value) => typeof value !== 'number' || !Number.isFinite(value)))
        throw new ChannelFailure('not_finite', 'embeddings endpoint returned a vector that is not all finite numbers');
      return Float32Array.from(item.embedding as number[]);
    });
  }
}

type EmbeddingItem = NonNullable<EmbeddingResponse['data']>[number];

/**
 * The items in the order of the texts sent: by their `index` when the endpoint gives one (each an
 * integer below the count, none twice, as a rerank answer is checked), else as they came. A missing,
 * repeated or out-of-range index would otherwise pair a text with another text's vector.
 */
function inInputOrder(data: EmbeddingItem[]): EmbeddingItem[] {
  if (data.every((item) => item?.index === undefined)) return data;
  const ordered: EmbeddingItem[] = new Array<EmbeddingItem>(data.length);
  for (const item of data) {
    const index = answerSlot(
      item?.index,
      data.length,
      (slot) => ordered[slot] !== undefined,
      'embeddings endpoint answered an index out of range, twice or not at all',
    );
    ordered[index] = item;
  }
  return ordered;
}
