/**
 * The engine's twin of generator/emit/defaults.ts: writers and readers of positions with a default-value table
 * (docs/FORMAT.md §10.1), with the same checks, paths and messages as the generated statements.
 */
import { tabledKind, type Tabled } from "../plan.ts";
import * as d from "../../defaults.ts";
import { invalid } from "../../writer.ts";
import type { WriteFn } from "./write.ts";
import type { ReadFn } from "./read.ts";

/** `emitTabledWrite`. */
export function tabledWriter(s: Tabled, p: string): WriteFn {
  switch (tabledKind(s)) {
    case "String": {
      const t = d.defaultTable(s.table as string[]);
      return stringWriter(p, (w, v) => d.writeTabledString(w, v, t));
    }
    case "PlainString": {
      const t = d.defaultTable(s.table as string[]);
      return stringWriter(p, (w, v) => d.writeTabledPlainString(w, v, t));
    }
    case "DateTime": {
      const t = d.defaultTable(s.table as string[]);
      return stringWriter(p, (w, v) => d.writeTabledDateTime(w, v, t));
    }
    case "Date": {
      const t = d.defaultTable(s.table as string[]);
      return stringWriter(p, (w, v) => d.writeTabledDate(w, v, t));
    }
    case "DecimalString": {
      const t = d.defaultTable(s.table as string[]);
      return stringWriter(p, (w, v) => d.writeTabledDecimalString(w, v, t));
    }
    case "Int64": {
      const t = d.defaultTable(s.table as number[]);
      return (w, v) => {
        if (!d.writeTabledInt64(w, v, t)) throw invalid(p, "a 64-bit integer (number or bigint)", v);
      };
    }
    case "Int": {
      const t = d.defaultTable(s.table as number[]);
      return (w, v) => {
        if (!(typeof v === "number" && Number.isInteger(v) && d.writeTabledInt(w, v, t))) throw invalid(p, "an integer within 64 bits", v);
      };
    }
    case "Number": {
      const t = d.defaultTable(s.table as number[]);
      return (w, v) => {
        if (!(typeof v === "number" && d.writeTabledNumber(w, v, t))) throw invalid(p, "a finite number", v);
      };
    }
  }
}

function stringWriter(p: string, put: (w: Parameters<WriteFn>[0], v: string) => boolean): WriteFn {
  return (w, v) => {
    if (typeof v !== "string") throw invalid(p, "a string", v);
    if (!put(w, v)) throw invalid(p, "a string without lone surrogates", v);
  };
}

/** `emitTabledRead`. */
export function tabledReader(s: Tabled, p: string): ReadFn {
  switch (tabledKind(s)) {
    case "String": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledString(r, t));
    }
    case "PlainString": {
      const t = d.defaultTable(s.table as string[]);
      return (r) => ((r.at = p), d.readTabledPlainString(r, t));
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
