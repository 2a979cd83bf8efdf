/**
 * The appendable line lexer under every text reader (TOON v4, dense, the payload finder): text arrives in pieces
 * split anywhere, and each line is handed on once it is complete, as `[start, end)` of a string, so a reader never
 * looks past the line it is reading. What is kept between pieces is the unfinished line only.
 *
 * A whole text given in one piece is not copied: its lines are ranges of that very string. A piece that completes
 * an unfinished line costs one concatenation of that line. A final `"\r"` is not part of its line (CRLF reads as
 * LF); the text's last line needs no `"\n"` (`end()` hands it on), and a text that ends with one has no empty line
 * after it.
 */

/** Where complete lines go: `text[start, end)` is line `no` (1-based), without its line break. */
export interface LineSink {
  line(text: string, start: number, end: number, no: number): void;
}

export class LineLexer {
  /** The unfinished line: text after the last line break seen. */
  private tail = "";
  /** Lines handed on. */
  private count = 0;
  private ended = false;

  constructor(private readonly sink: LineSink) {}

  /** Hand on every line `chunk` completes; keep the rest. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    let nl = chunk.indexOf("\n");
    if (nl < 0) {
      this.tail += chunk;
      return;
    }
    let text = chunk;
    let from = 0;
    if (this.tail.length > 0) {
      // the unfinished line and the start of this piece make one line; the rest is read in place
      text = this.tail + chunk.slice(0, nl + 1);
      this.tail = "";
      this.emit(text, 0, text.length - 1);
      text = chunk;
      from = nl + 1;
      nl = chunk.indexOf("\n", from);
    }
    while (nl >= 0) {
      this.emit(text, from, nl);
      from = nl + 1;
      nl = text.indexOf("\n", from);
    }
    if (from < text.length) this.tail = from === 0 ? text : text.slice(from);
  }

  /** The text is over: its last line, when it did not end with a line break. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.tail.length > 0) {
      const t = this.tail;
      this.tail = "";
      this.emit(t, 0, t.length);
    }
  }

  /** The unfinished line so far (what a reader may show of a cell still being written). */
  get pending(): string {
    return this.tail;
  }

  /** Lines handed on so far (the number of the last one). */
  get lines(): number {
    return this.count;
  }

  private emit(text: string, start: number, end: number): void {
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    this.sink.line(text, start, end, ++this.count);
  }
}
