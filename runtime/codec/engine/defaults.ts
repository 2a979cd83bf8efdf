/**
 * The engine's twin of generator/emit/defaults.ts: writers and readers of positions with a default-value table
 * (docs/FORMAT.md §10.1), with the same checks, paths and messages as the generated statements.
 */
import { tabledKind, type Tabled } from "../plan.ts";
import * as d from "../../defaults.ts";
import type { Writer } from "../../writer.ts";
import { TABLED_GUARDS } from "../kinds/scalar.ts";
import type { WriteFn } from "./write.ts";
import type { ReadFn } from "./read.ts";

/** `emitTabledWrite`: the tabled guard of the position's wire form (runtime/codec/kinds/scalar.ts). */
export function tabledWriter(s: Tabled, p: string): WriteFn {
  const guard = TABLED_GUARDS[tabledKind(s)] as (w: Writer, v: unknown, t: d.DefaultTable, p: string) => void;
  const t = d.defaultTable(s.table as (string | number)[]);
  return (w, v) => guard(w, v, t, p);
}

/** `emitTabledRead`. */
export function tabledReader(s: Tabled, p: string): ReadFn {
  switch (tabledKind(s)) {
    case "String": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledString(r, t));
    }
    case "DateTime": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledDateTime(r, t));
    }
    case "Date": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledDate(r, t));
    }
    case "DecimalString": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledDecimalString(r, t));
    }
    case "Int64": {
      const t = d.defaultTable(s.table as number[]);
      return (r) => ((r.at = p), d.readTabledInt64(r, t));
    }
    case "Int": {
      const t = d.defaultTable(s.table as number[]);
      return (r) => ((r.at = p), d.readTabledInt(r, t));
    }
    case "Number": {
      const t = d.defaultTable(s.table as number[]);
      return (r) => ((r.at = p), d.readTabledNumber(r, t));
    }
  }
}
