/**
 * ajv's `ValueScope._reduceValues` (8.x) builds a module's constants by re-templating the code so far for each
 * one (`code = _\`${code}const ${name} = ${c};\``), copying every earlier item each time: quadratic in the number
 * of constants. A schema with 4,000 patterns spent 10 s there (of 10.5 s compiling its validator), past the bound
 * of issue 26 (any schema up to 1 MB generates within 10 s). This is the same loop appending each constant's
 * own few items to one array: the same code, item for item in the same order, in linear time.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

interface Code {
  readonly _items: readonly unknown[];
}
interface ScopeName {
  value?: { code: Code };
}
interface ValueScopeLike {
  opts: { es5?: boolean; _n: Code };
}

const scope = require("ajv/dist/compile/codegen/scope.js") as {
  ValueScope: { prototype: Record<string, unknown> };
  UsedValueState: { Started: number; Completed: number };
  varKinds: { var: unknown; const: unknown };
};
const codegen = require("ajv/dist/compile/codegen/code.js") as {
  _: (strs: TemplateStringsArray, ...args: unknown[]) => Code;
  _Code: new (items: unknown[]) => Code;
  nil: Code;
};
const { _, _Code } = codegen;

function reduceValues(
  this: ValueScopeLike,
  values: Record<string, Iterable<ScopeName> | undefined>,
  valueCode: (name: ScopeName) => Code | undefined,
  usedValues: Record<string, Map<ScopeName, number>> = {},
  getCode?: (name: ScopeName) => Code | undefined,
): Code {
  const items: unknown[] = [];
  for (const prefix in values) {
    const vs = values[prefix];
    if (!vs) continue;
    const nameSet = (usedValues[prefix] = usedValues[prefix] || new Map());
    for (const name of vs) {
      if (nameSet.has(name)) continue;
      nameSet.set(name, scope.UsedValueState.Started);
      let c = valueCode(name);
      let piece: Code;
      if (c) piece = _`${this.opts.es5 ? scope.varKinds.var : scope.varKinds.const} ${name} = ${c};${this.opts._n}`;
      else if ((c = getCode?.(name))) piece = _`${c}${this.opts._n}`;
      else throw new Error(`CodeGen: "code" for ${String(name)} not defined`);
      for (const item of piece._items) items.push(item);
      nameSet.set(name, scope.UsedValueState.Completed);
    }
  }
  return items.length === 0 ? codegen.nil : new _Code(items);
}

let installed = false;

/** Replace ajv's quadratic `_reduceValues` (once per process; ajv's other code is untouched). */
export function installLinearScope(): void {
  if (installed) return;
  if (typeof scope.ValueScope.prototype["_reduceValues"] !== "function") throw new Error("internal: ajv's ValueScope has no _reduceValues (ajv changed): generator/validate/ajv-scope.ts");
  scope.ValueScope.prototype["_reduceValues"] = reduceValues;
  installed = true;
}
