/**
 * Incremental `text/event-stream` decoder (WHATWG HTML, server-sent events): body bytes in, the `data`
 * of each completed event out. Chat completions only use `data`; `event`, `id`, `retry` and comments are dropped.
 */
export class SseDecoder {
  private readonly text = new TextDecoder();
  private readonly lineEnd = /\r\n|\r|\n/g;
  private buffer = '';
  private data: string[] = [];

  /** Decodes one piece of the body (which may split a line, an event or a UTF-8 character anywhere). */
  push(bytes: Uint8Array): string[] {
    this.buffer += this.text.decode(bytes, { stream: true });
    return this.drain(false);
  }

  /** Ends the body; a last event that lacks its blank line is still delivered, as some servers omit it. */
  end(): string[] {
    this.buffer += this.text.decode();
    const events = this.drain(true);
    if (this.buffer !== '') this.line(this.buffer, events);
    this.buffer = '';
    this.dispatch(events);
    return events;
  }

  private drain(final: boolean): string[] {
    const events: string[] = [];
    let start = 0;
    this.lineEnd.lastIndex = 0;
    for (let match = this.lineEnd.exec(this.buffer); match; match = this.lineEnd.exec(this.buffer)) {
      // A '\r' that ends the piece may be the first half of a '\r\n': wait for the next piece.
      if (!final && match[0] === '\r' && this.lineEnd.lastIndex === this.buffer.length) break;
      this.line(this.buffer.slice(start, match.index), events);
      start = this.lineEnd.lastIndex;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private line(line: string, events: string[]): void {
    if (line === '') return this.dispatch(events);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return;
    const value = colon < 0 ? '' : line.slice(colon + 1);
    this.data.push(value.startsWith(' ') ? value.slice(1) : value);
  }

  private dispatch(events: string[]): void {
    if (this.data.length > 0) events.push(this.data.join('\n'));
    this.data = [];
  }
}
