// Deterministic sample data for schemas/tool-call-batch.schema.json.
// Run: node --import tsx examples/tool-calls/make-data.ts   (rewrites data/tool-call-batch.json)
// Same seed → byte-identical output: a seeded PRNG, fixed dates, no Math.random/Date.now.

import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export type Action = "get_weather" | "get_forecast" | "get_air_quality" | "get_sunrise_sunset";
export interface ToolCall { action: Action; args: { city: string; date: string } }
export interface ToolCallBatch { calls: ToolCall[] }

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CN_CITIES = ["北京", "上海", "广州", "深圳", "杭州", "成都", "武汉", "西安", "南京", "重庆", "苏州", "哈尔滨", "乌鲁木齐"];
const OTHER_CITIES = ["香港", "台北", "Singapore", "東京", "San Francisco"];
// get_weather dominates, as it would in a real assistant's traffic.
const ACTIONS: Action[] = ["get_weather", "get_weather", "get_weather", "get_forecast", "get_forecast", "get_air_quality", "get_sunrise_sunset"];

const BASE_DAY = Date.UTC(2025, 0, 15); // 2025-01-15

export function makeData(seed = 0xc17e): ToolCallBatch {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const calls: ToolCall[] = [];
  for (let i = 0; i < 20; i++) {
    // The first call is the canonical example from the docs.
    if (i === 0) {
      calls.push({ action: "get_weather", args: { city: "北京", date: "2025-01-15" } });
      continue;
    }
    const city = i < 5 ? CN_CITIES[i]! : rnd() < 0.8 ? pick(CN_CITIES) : pick(OTHER_CITIES);
    const day = BASE_DAY + Math.floor(rnd() * 10) * 86_400_000;
    calls.push({ action: pick(ACTIONS), args: { city, date: new Date(day).toISOString().slice(0, 10) } });
  }
  return { calls };
}

export const dataFile = fileURLToPath(new URL("./data/tool-call-batch.json", import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(fileURLToPath(new URL("./data/", import.meta.url)), { recursive: true });
  writeFileSync(dataFile, JSON.stringify(makeData(), null, 2) + "\n");
  console.log(`wrote ${dataFile}`);
}
