/**
 * Incremental `text/event-stream` decoder (WHATWG HTML, server-sent events): body bytes in, the `data`
 * of each completed event out. Chat completions only use `data`; `event`, `id`, `retry` and comments are dropped.
 */
export class SseDecoder {
  private readonly text = new TextDecoder();
  private buffer = '';
  /** A '\r' that ended the last piece: it may be the first half of a '\r\n' split across two pieces. */
  private heldCr = false;
  private data: string[] = [];

  /** Decodes one piece of the body (which may split a line, an event or a UTF-8 character anywhere). */
  push(bytes: Uint8Array): string[] {
    return this.take(this.text.decode(bytes, { stream: true }), false);
  }

  /** Ends the body; a last event that lacks its blank line is still delivered, as some servers omit it. */
  end(): string[] {
    const events = this.take(this.text.decode(), true);
    if (this.buffer !== '') this.line(this.buffer, events);
    this.buffer = '';
    this.dispatch(events);
    return events;
  }

  /** Line ends (CRLF, CR, LF) become '\n' on the way in, so lines are found with indexOf alone. */
  private take(piece: string, final: boolean): string[] {
    let text = this.heldCr ? `\r${piece}` : piece;
    this.heldCr = false;
    if (text.includes('\r')) {
      if (!final && text.endsWith('\r')) {
        this.heldCr = true;
        text = text.slice(0, -1);
      }
      text = text.replace(/\r\n?/g, '\n');
    }
    this.buffer += text;
    const events: string[] = [];
    let start = 0;
    for (let end = this.buffer.indexOf('\n'); end >= 0; end = this.buffer.indexOf('\n', start)) {
      this.line(this.buffer.slice(start, end), events);
      start = end + 1;
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
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
    if (this.data.length === 0) return;
    events.push(this.data.length === 1 ? this.data[0] : this.data.join('\n'));
    this.data = [];
  }
}
