/** The values-and-keys floor of bench/dense-floor.ts (its header says what it is for). */
import { basicDate, basicStamp } from "../runtime/text/dense/syntax.ts";

/** The floor text of a value: its distinct keys once, then its leaf values, comma-separated. */
export function floorText(value: unknown): string {
  const keys = new Set<string>();
  const leaves: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        keys.add(k);
        walk(x);
      }
    } else leaves.push(typeof v === "string" ? (basicStamp(v) ?? basicDate(v) ?? v) : String(v));
  };
  walk(value);
  return [...keys].join(",") + (keys.size > 0 && leaves.length > 0 ? "," : "") + leaves.join(",");
}
