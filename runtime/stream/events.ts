/**
 * The events of a value arriving in parts, shared by the binary stream decoder (./decoder.ts: frames) and the text
 * readers (../text/reader: a model's reply as it streams): a property or array item whose value is final, more text
 * of a string still arriving, the whole value. Typed by a module's stream paths (`$StreamPaths`: path -> value type).
 */

/** A module's stream paths: dictionary path -> the type of the value there. */
export type PathMap = Record<string, unknown>;

/** A property, tuple position or map value is complete; its value is final. */
export type FieldEvent<P extends PathMap = PathMap> = {
  [K in keyof P & string]: { type: "field"; path: K; pointer: string; value: P[K] };
}[keyof P & string];
/** An array item (or tuple rest item) is complete. */
export type ElementEvent<P extends PathMap = PathMap> = {
  [K in keyof P & string]: { type: "element"; path: K; pointer: string; index: number; value: P[K] };
}[keyof P & string];
/** More text of a string that is still arriving (TEXT frames); `text` is all of it so far. */
export interface TextEvent {
  type: "text";
  path: string;
  pointer: string;
  delta: string;
  text: string;
}
/** The whole value is complete. */
export interface ValueEvent<T> {
  type: "value";
  path: "$";
  pointer: "";
  value: T;
}
export type StreamEvent<T = unknown, P extends PathMap = PathMap> = FieldEvent<P> | ElementEvent<P> | TextEvent | ValueEvent<T>;

/** What a snapshot holds: any part may still be missing; what is there is final (strings in progress aside). */
export type PartialValue<T> = T extends readonly (infer E)[]
  ? (PartialValue<E> | undefined)[]
  : T extends object
    ? { [K in keyof T]?: PartialValue<T[K]> }
    : T;
