/**
 * Seeded random Zod 4 schemas for property tests of the Zod input (generator/inputs/zod.ts): objects (strict,
 * passthrough, with optional, nullable and nullish fields under awkward names), arrays, records, tuples, unions,
 * discriminated unions, defaults, `unknown`, string formats (datetime, date, uuid, email), literals, enums, ints
 * and bigints (which have no JSON form: the conversion refuses them with UNSUPPORTED_SCHEMA).
 */
import { z } from "zod";
import { Rng } from "./rng.ts";

const NAMES = ["id", "name", "__proto__", "a b", "x,y", "constructor", "123", "é", "new\nline", "k:v", ""];

export function randomZod(seed: number): z.ZodObject {
  return z.object({ root: gen(new Rng(seed), 0) });
}

function gen(r: Rng, d: number): z.ZodType {
  const roll = r.next();
  if (d > 3 || roll < 0.3) return scalar(r);
  if (roll < 0.5) return object(r, d);
  if (roll < 0.6) return z.array(gen(r, d + 1));
  if (roll < 0.65) return z.record(z.string(), gen(r, d + 1));
  if (roll < 0.7) return z.tuple([gen(r, d + 1), gen(r, d + 1)]);
  if (roll < 0.78) return z.union([gen(r, d + 1), gen(r, d + 1)]);
  if (roll < 0.85) return z.discriminatedUnion("kind", [z.object({ kind: z.literal("a"), x: gen(r, d + 1) }), z.object({ kind: z.literal("b"), y: gen(r, d + 1).optional() })]);
  if (roll < 0.9) return z.string().default(r.pick(["d", "", "x,y"]));
  if (roll < 0.95) return z.unknown();
  return z.string().min(1).max(40);
}

function scalar(r: Rng): z.ZodType {
  const make = r.pick<() => z.ZodType>([
    () => z.string(),
    () => z.number(),
    () => z.number().int(),
    () => z.boolean(),
    () => z.null(),
    () => z.iso.datetime(),
    () => z.iso.date(),
    () => z.uuid(),
    () => z.email(),
    () => z.enum(["a", "b,c", "12"]),
    () => z.literal("lit"),
    () => z.bigint(),
  ]);
  return make();
}

function object(r: Rng, d: number): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  const n = r.int(1, 5);
  for (let i = 0; i < n; i++) {
    let t = gen(r, d + 1);
    const m = r.next();
    if (m < 0.3) t = t.optional();
    else if (m < 0.4) t = t.nullable();
    else if (m < 0.45) t = t.nullish();
    Object.defineProperty(shape, r.pick(NAMES) + i, { value: t, enumerable: true, writable: true, configurable: true });
  }
  const o = z.object(shape);
  return r.chance(0.3) ? o.strict() : r.chance(0.2) ? o.passthrough() : o;
}
