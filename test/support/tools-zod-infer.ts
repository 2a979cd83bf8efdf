/**
 * Type-level test (type-checked by tsc in test/zod.test.ts, and by the repo's `tsc -p tsconfig.json`): the
 * types generated from the Zod schemas of examples/tools/schemas.ts are exactly `z.infer` of those schemas,
 * and the tool-set types are discriminated by tool name. Nothing here runs.
 */
import type { z } from "zod";
import type * as z3 from "zod/v3";
import type * as S from "../../examples/tools/schemas.ts";
import type { WeatherQuery } from "../../examples/tools/gen/weather-query.ts";
import type { Forecast } from "../../examples/tools/gen/forecast.ts";
import type { LegacyAlert } from "../../examples/tools/gen/legacy-alert.ts";
import type {
  GetForecastArguments,
  GetWeatherArguments,
  WeatherTools,
  WeatherToolsArguments,
  WeatherToolsCall,
  WeatherToolsName,
} from "../../examples/tools/gen/weather-tools.ts";
import type { McpToolsListResults, NotesSearchResult } from "../../examples/tools/gen/mcp-tools-list.ts";

/** Exact type identity (not just mutual assignability): optional vs required, `readonly`, extra keys all count. */
export type Eq<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;
export type Not<T extends boolean> = T extends true ? false : true;

export type ZodInferChecks = [
  Assert<Eq<WeatherQuery, z.infer<typeof S.WeatherQuery>>>,
  Assert<Eq<Forecast, z.infer<typeof S.forecastSchema>>>,
  Assert<Eq<LegacyAlert, z3.infer<typeof S.legacyAlertSchema>>>,
  Assert<Eq<Forecast["days"][number], z.infer<typeof S.forecastSchema>["days"][number]>>,
  // the helper is not vacuous: near misses are told apart
  Assert<Not<Eq<WeatherQuery, z.input<typeof S.WeatherQuery>>>>, // `unit` has a default: optional on input
  Assert<Not<Eq<Forecast, Omit<z.infer<typeof S.forecastSchema>, "alerts">>>>,
  Assert<Not<Eq<{ a?: string }, { a: string | undefined }>>>,
];

export type ToolSetChecks = [
  Assert<Eq<WeatherToolsName, "get_weather" | "get_forecast" | "get-air-quality">>,
  Assert<Eq<Extract<WeatherTools, { name: "get_forecast" }>["arguments"], GetForecastArguments>>,
  Assert<Eq<WeatherToolsArguments["get_weather"], GetWeatherArguments>>,
  Assert<Eq<Extract<WeatherToolsCall, { name: "get-air-quality" }>["id"], string>>,
  Assert<Eq<McpToolsListResults["notes.search"], NotesSearchResult>>,
];

/** Narrowing on `name` gives the tool's own argument type. */
export function forecastDays(call: WeatherToolsCall): number | undefined {
  if (call.name === "get_forecast") return call.arguments.days;
  // @ts-expect-error: `days` is not an argument of the other tools
  return call.arguments.days;
}
