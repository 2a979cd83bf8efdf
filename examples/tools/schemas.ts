/**
 * Zod schemas used as toon-gen inputs (see toon.config.json): every exported Zod schema becomes a codec in
 * gen/, named after the export (a trailing `Schema` dropped). Zod 4 and Zod 3 (`zod/v3`) schemas can be mixed.
 * The generated types equal `z.infer` of these (test/support/tools-zod-infer.ts proves it with tsc).
 */
import { z } from "zod";
import * as z3 from "zod/v3";

/** A weather question extracted from a user message. */
export const WeatherQuery = z.object({
  city: z.string().min(1).describe("City name, as the user wrote it"),
  date: z.iso.date().optional().describe("Local calendar day, when the user named one"),
  unit: z.enum(["celsius", "fahrenheit"]).default("celsius"),
});

const Day = z.object({
  date: z.iso.date(),
  high: z.number(),
  low: z.number(),
  conditions: z.enum(["sunny", "cloudy", "rain", "snow", "storm"]),
  /** Chance of precipitation, 0..1, or null when the provider has none. */
  precipitation: z.number().min(0).max(1).nullable(),
});

/** A forecast as a tool returns it. */
export const forecastSchema = z.object({
  city: z.string(),
  days: z.array(Day),
  alerts: z.array(z.string()).optional(),
  sources: z.record(z.string(), z.url()),
});

/** A Zod 3 schema (through `zod/v3`): converted with zod-to-json-schema. */
export const legacyAlertSchema = z3.object({
  level: z3.enum(["advisory", "watch", "warning"]),
  headline: z3.string(),
  areas: z3.array(z3.string()).min(1),
  expires: z3.string().datetime().optional(),
});

export type WeatherQuery = z.infer<typeof WeatherQuery>;
export type Forecast = z.infer<typeof forecastSchema>;
export type LegacyAlert = z3.infer<typeof legacyAlertSchema>;
