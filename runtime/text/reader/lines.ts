/**
 * The appendable line lexer under every text reader (TOON v4, dense, the payload finder): text arrives in pieces
 * split anywhere, and each line is handed on once it is complete, as `[start, end)` of a string, so a reader never
 * looks past the line it is reading. What is kept between pieces is the unfinished line only.
 *
 * A whole text given in one piece is not copied: its lines are ranges of that very string (the last one too when
 * the text is given to `end`). A piece that completes an unfinished line costs one concatenation of that line (a
 * short piece is joined whole: the line is a range of the result). A final `"\r"` is not part of its line (CRLF
 * reads as LF); the text's last line needs no `"\n"` (`end()` hands it on), and a text that ends with one has no
 * empty line after it.
 */

/** Where complete lines go: `text[start, end)` is line `no` (1-based), without its line break. */
export interface LineSink {
  /** `last`: the text's last line, which no line break ends (the input ended in it). */
  line(text: string, start: number, end: number, no: number, last?: boolean): void;
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
    if (chunk.length > 0) this.read(chunk, false);
  }

  /** The text is over (`last`: its last piece): its last line, when it did not end with a line break. */
  end(last?: string): void {
    if (this.ended) return;
    this.ended = true;
    if (last !== undefined && last.length > 0) this.read(last, true);
    else if (this.tail.length > 0) {
      const t = this.tail;
      this.tail = "";
      this.emit(t, 0, t.length, true);
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

  /** Hand on the lines of `chunk` (`final`: the text ends with it, its last line too); keep the rest. */
  private read(chunk: string, final: boolean): void {
    let nl = chunk.indexOf("\n");
    if (nl < 0) {
      if (!final) this.tail += chunk;
      else {
        const t = this.tail.length > 0 ? this.tail + chunk : chunk;
        this.tail = "";
        this.emit(t, 0, t.length, true);
      }
      return;
    }
    let text = chunk;
    let from = 0;
    if (this.tail.length > 0) {
      // the unfinished line and the start of this piece make one line; the rest is read in place
      const line = this.tail.length + nl;
      text = chunk.length <= 64 ? this.tail + chunk : this.tail + chunk.slice(0, nl);
      this.tail = "";
      this.emit(text, 0, line, false);
      text = chunk;
      from = nl + 1;
      nl = from < chunk.length ? chunk.indexOf("\n", from) : -1;
    }
    const sink = this.sink;
    while (nl >= 0) {
      // emit(), written out: this loop is every line of a text given whole
      sink.line(text, from, nl > from && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl, ++this.count, false);
      from = nl + 1;
      nl = text.indexOf("\n", from);
    }
    if (from < text.length) {
      if (final) this.emit(text, from, text.length, true);
      else this.tail = from === 0 ? text : text.slice(from);
    }
  }

  private emit(text: string, start: number, end: number, last: boolean): void {
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    this.sink.line(text, start, end, ++this.count, last);
  }
}
