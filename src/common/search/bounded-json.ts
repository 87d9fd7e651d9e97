import type { OutboundResponse } from '../http/outbound-fetch';
import { ChannelFailure } from './channel-failure';

/**
 * A response body parsed as JSON, read chunk by chunk and refused (connection cancelled) once it passes
 * `maxBytes`, so an endpoint that answers too much cannot fill the heap.
 */
export async function readBoundedJson(
  response: OutboundResponse | Response,
  maxBytes: number,
  subject: string,
): Promise<unknown> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new ChannelFailure('too_large', `${subject} answered more than ${maxBytes} bytes`);
  }
  const reader = response.body?.getReader();
  if (!reader) throw new ChannelFailure('malformed', `${subject} answered no body`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ChannelFailure('too_large', `${subject} answered more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ChannelFailure('malformed', `${subject} returned a body that is not JSON`);
  }
}
