/**
 * What a generated module's bytes are spent on: each top-level statement (with its leading comments) goes to
 * the codec feature its declared name belongs to, by the emitter's naming (`write*` binary, `$sw*` stream,
 * `$tx*` text, ...). A name no rule knows counts as "other", so an emitter rename shows up as a growing
 * "other", never as a wrong figure elsewhere.
 */
import ts from "typescript";

export const PARTS = [
  "types",
  "binary",
  "stream",
  "text encode",
  "text check",
  "model output",
  "validate",
  "dictionary",
  "peek",
  "codec object",
  "other",
] as const;
export type Part = (typeof PARTS)[number];

/** First match wins; tested against the declared name. */
const RULES: [RegExp, Part][] = [
  // names are `<prefix>_<Definition>_<path>` (emit/context.ts), or numbered in modules of older generators
  [/^(write|read)/, "binary"],
  // oversized functions split into module-level helpers: binary write/read and union predicates (emit/context.ts)
  [/^\$chunk[WRP](\d|_|\$|$)/, "binary"],
  [/^\$(keys|dt|enum|json|set|ext[WR]|is)(\d|_|\$|$)/, "binary"],
  [/^\$(applyExtensions|encode|decode|FINGERPRINT|FLAGS|LEVEL|isArray|isInteger)$/, "binary"],
  // a module written for size ("optimize"): the engine's codec and text check over the descriptor
  [/^\$engine$/, "binary"],
  [/^\$textCheck$/, "text check"],
  [/^\$(sw|sr)\d/, "stream"],
  [/^\$(streamSpec|StreamPaths|descriptor)$/, "stream"],
  // parts of the descriptor declared once (emit/descriptor-share.ts)
  [/^\$[sp]_/, "stream"],
  [/^\$(thints|tinstructions)(\d|_|\$|$)/, "model output"],
  [/^\$(tx|tf|ti)[A-Z]/, "text encode"],
  [/^\$(tr|trc|tfields|txc)(\d|_|\$|$)/, "text encode"],
  [/^\$ck[A-Z]/, "text check"],
  [/^\$(ckb|ckc|tenum|tset|tunion|tmask|tkeys)(\d|_|\$|$)/, "text check"],
  [/^\$(check(\d|_|\$|$)|validate$)/, "validate"],
  [/^\$dictionary$/, "dictionary"],
  // field index offsets and peek accessors (docs/FORMAT.md §10.2)
  [/^\$(ix|peekR|PEEK)(\d|_|\$|$)/, "peek"],
];

function partOf(statement: ts.Statement): Part {
  if (ts.isInterfaceDeclaration(statement) || (ts.isTypeAliasDeclaration(statement) && !statement.name.text.startsWith("$"))) return "types";
  let name: string | undefined;
  if (ts.isFunctionDeclaration(statement)) name = statement.name?.text;
  else if (ts.isTypeAliasDeclaration(statement)) name = statement.name.text;
  else if (ts.isVariableStatement(statement)) {
    const d = statement.declarationList.declarations[0];
    if (d !== undefined && ts.isIdentifier(d.name)) name = d.name.text;
    // `export const OrderList = { encode, decode, ... }`: the codec object users import
    const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) === true;
    if (exported && name !== undefined && !name.startsWith("$")) return "codec object";
  }
  if (name === undefined) return "other";
  for (const [re, part] of RULES) if (re.test(name)) return part;
  return "other";
}

/** UTF-8 bytes of `text` (a generated module) per part; they sum to the module's bytes. */
export function moduleParts(text: string): Record<Part, number> {
  const out = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const file = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let last = 0;
  for (const s of file.statements) {
    // from the end of the previous statement: leading comments and blank lines belong to what follows
    out[partOf(s)] += Buffer.byteLength(text.slice(last, s.end));
    last = s.end;
  }
  out.other += Buffer.byteLength(text.slice(last));
  return out;
}
