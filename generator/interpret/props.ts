/** Property access shared by the interpreted writers and predicates. */
import { getOwn } from "../../runtime/objects.ts";

/**
 * `readProp` in the emitter: keys `Object.prototype` has (`__proto__`, `constructor`, `toString`, ...) are read
 * as own properties only, others with a plain property read.
 */
export function propReader(key: string): (o: any) => unknown {
  return key in Object.prototype ? (o) => getOwn(o, key) : (o) => o[key];
}
