/**
 * Incremental `text/event-stream` decoder (WHATWG HTML, server-sent events): body bytes in, the `data`
 * of each completed event out. Chat completions only use `data`; `event`, `id`, `retry` and comments are dropped.
 */
export class SseDecoder {
  private readonly text = new TextDecoder();
  private buffer = '';
  /** Characters of the event being gathered (its data lines so far). */
  private eventLength = 0;

  /**
   * @param maxEventLength the longest event (or line) accepted, in characters; a longer one throws
   * `tooLong()` as soon as it is seen, before the rest of it is read.
   */
  constructor(
    private readonly maxEventLength = Number.POSITIVE_INFINITY,
    private readonly tooLong: () => Error = () => new Error('server-sent event too long'),
  ) {}
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
    // What was buffered before holds no line end: only the new text is searched.
    const searchFrom = this.buffer.length;
    this.buffer += text;
    const events: string[] = [];
    let start = 0;
    for (let end = this.buffer.indexOf('\n', searchFrom); end >= 0; end = this.buffer.indexOf('\n', start)) {
      this.line(this.buffer.slice(start, end), events);
      start = end + 1;
    }
    if (start > 0) this.buffer = this.buffer.slice(start);
    if (this.buffer.length + this.eventLength > this.maxEventLength) throw this.tooLong();
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
    this.eventLength += value.length;
    if (this.eventLength > this.maxEventLength) throw this.tooLong();
  }

  private dispatch(events: string[]): void {
    if (this.data.length === 0) return;
    events.push(this.data.length === 1 ? this.data[0] : this.data.join('\n'));
    this.data = [];
    this.eventLength = 0;
  }
}
