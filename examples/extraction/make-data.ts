// Deterministic sample data for schemas/extraction-result.schema.json.
// Run: node --import tsx examples/extraction/make-data.ts   (rewrites data/extraction-result.json)
// Same seed → byte-identical output: a seeded PRNG, fixed epochs, no Math.random/Date.now.
// All people and companies are fictional.

import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface PersonEntity { type: "person"; name: string; role?: string; confidence: number }
export interface OrganizationEntity { type: "organization"; name: string; ticker?: string; confidence: number }
export interface LocationEntity { type: "location"; name: string; countryCode?: string; lat?: number; lon?: number; confidence: number }
export interface DateEntity { type: "date"; text: string; value: string; precision: "day" | "month" | "year"; confidence: number }
export interface MoneyEntity { type: "money"; text: string; amount: number; currency: string; confidence: number }
export type Entity = PersonEntity | OrganizationEntity | LocationEntity | DateEntity | MoneyEntity;
export interface Document {
  id: string;
  source: "news" | "filing" | "email" | "chat" | "report";
  language: "en" | "zh";
  url?: string;
  text: string;
  entities: Entity[];
}
export interface ExtractionResult { model: string; extractedAt: string; documents: Document[] }

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

type Lang = "en" | "zh";
const PEOPLE: Record<Lang, string[]> = {
  en: ["Chen Yu", "James Carter", "Aiko Tanaka", "Priya Raman", "Lukas Becker", "Sarah Kim"],
  zh: ["王丽", "刘强", "赵敏", "孙浩", "周雅琴", "林志远"],
};
const ROLES: Record<Lang, string[]> = {
  en: ["chief executive", "CFO", "head of research", "general counsel", "VP of sales"],
  zh: ["首席执行官", "财务总监", "研究院院长", "法务总监", "销售副总裁"],
};
// [name, ticker?]
const ORGS: Record<Lang, [string, string?][]> = {
  en: [["Northwind Traders", "NWTD"], ["Contoso Ltd"], ["Fabrikam Robotics", "FBRK"], ["Tailspin Air"], ["Lumen Bio"]],
  zh: [["华星科技", "688123"], ["蓝海物流"], ["云帆智能"], ["东岳新能源", "300999"], ["青禾食品"]],
};
// [name, countryCode?, lat?, lon?]
const PLACES: Record<Lang, [string, string?, number?, number?][]> = {
  en: [["Shanghai", "CN", 31.2304, 121.4737], ["Singapore", "SG", 1.3521, 103.8198], ["Berlin", "DE", 52.52, 13.405], ["Seattle", "US", 47.6062, -122.3321], ["the Pearl River Delta", "CN"], ["Southeast Asia"]],
  zh: [["上海", "CN", 31.2304, 121.4737], ["深圳", "CN", 22.5431, 114.0579], ["杭州", "CN", 30.2741, 120.1551], ["成都", "CN", 30.5728, 104.0668], ["长三角地区", "CN"], ["东南亚"]],
};
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SOURCES = ["news", "filing", "email", "chat", "report"] as const;

// Slots: {P} person, {R} role, {O} organisation, {O2} second organisation, {L} place, {D} date,
// {PD} "on <day>" / "in <month or year>" ({PDc}: capitalised), {M} money.
const TEMPLATES: Record<Lang, string[]> = {
  en: [
    "{O} appointed {P} as {R} {PD}, according to a filing made in {L}.",
    "{P}, {R} at {O}, said quarterly revenue rose to {M} {PD}, driven by demand in {L}.",
    "{O} will open a regional office in {L} {PD} and plans to invest {M} over three years.",
    "{PDc}, {P} signed a {M} supply agreement with {O2} on behalf of {O}.",
    "Hi team, {P} from {O} confirmed the {M} order; delivery to {L} is scheduled for {D}.",
  ],
  zh: [
    "{O}于{D}发布公告，任命{P}为{R}，公司总部位于{L}。",
    "{P}（{O}{R}）表示，公司在{D}实现营收{M}，同比增长明显。",
    "{D}，{O}在{L}设立研发中心，总投资{M}。",
    "{L}消息：{O}与{O2}签署战略合作协议，{P}出席签约仪式，合同金额{M}。",
    "{P}：{O}那边已经确认{M}的订单了，{D}之前发到{L}。",
  ],
};

const EXTRACTED_AT = Date.UTC(2025, 4, 20, 9, 30, 0);

export function makeData(seed = 0xe47a): ExtractionResult {
  const rnd = mulberry32(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const conf = () => Math.round((0.72 + rnd() * 0.27) * 100) / 100;
  const pad = (n: number) => String(n).padStart(2, "0");

  const dateMention = (lang: Lang): DateEntity => {
    const y = int(2023, 2025);
    const m = y === 2025 ? int(1, 4) : int(1, 12); // nothing after the extraction date
    const d = int(1, 28);
    const r = rnd();
    const precision = r < 0.55 ? "day" : r < 0.85 ? "month" : "year";
    const value = precision === "day" ? `${y}-${pad(m)}-${pad(d)}` : precision === "month" ? `${y}-${pad(m)}-01` : `${y}-01-01`;
    const text =
      lang === "en"
        ? precision === "day" ? `${MONTHS[m - 1]} ${d}, ${y}` : precision === "month" ? `${MONTHS[m - 1]} ${y}` : `${y}`
        : precision === "day" ? `${y}年${m}月${d}日` : precision === "month" ? `${y}年${m}月` : `${y}年`;
    return { type: "date", text, value, precision, confidence: conf() };
  };

  const moneyMention = (lang: Lang): MoneyEntity => {
    if (lang === "zh") {
      if (rnd() < 0.6) {
        const yi = int(12, 980) / 10; // 亿元
        return { type: "money", text: `${yi}亿元`, amount: Math.round(yi * 1e8), currency: "CNY", confidence: conf() };
      }
      const wan = int(5, 9800); // 万元
      return { type: "money", text: `${wan}万元`, amount: wan * 1e4, currency: "CNY", confidence: conf() };
    }
    const [sym, cur] = pick([["$", "USD"], ["€", "EUR"], ["S$", "SGD"]] as const);
    const millions = int(15, 2500) / 10;
    return { type: "money", text: `${sym}${millions} million`, amount: Math.round(millions * 1e6), currency: cur, confidence: conf() };
  };

  const documents: Document[] = [];
  for (let i = 0; i < 14; i++) {
    const lang: Lang = i % 2 === 0 ? "zh" : "en";
    const template = TEMPLATES[lang][Math.floor(i / 2) % TEMPLATES[lang].length]!;
    const person = pick(PEOPLE[lang]);
    const role = pick(ROLES[lang]);
    const org = pick(ORGS[lang]);
    let org2 = pick(ORGS[lang]);
    while (org2[0] === org[0]) org2 = pick(ORGS[lang]);
    const place = pick(PLACES[lang]);
    const date = dateMention(lang);
    const money = moneyMention(lang);

    const entities: Entity[] = [];
    const text = template.replace(/\{(PDc|PD|P|R|O2|O|L|D|M)\}/g, (_m, slot: string) => {
      switch (slot) {
        case "P":
          entities.push({ type: "person", name: person, ...(template.includes("{R}") ? { role } : {}), confidence: conf() });
          return person;
        case "R":
          return role;
        case "O":
        case "O2": {
          const [name, ticker] = slot === "O" ? org : org2;
          entities.push({ type: "organization", name, ...(ticker ? { ticker } : {}), confidence: conf() });
          return name;
        }
        case "L": {
          const [name, countryCode, lat, lon] = place;
          const e: LocationEntity = {
            type: "location",
            name,
            ...(countryCode ? { countryCode } : {}),
            ...(lat !== undefined && lon !== undefined ? { lat, lon } : {}),
            confidence: conf(),
          };
          entities.push(e);
          return name;
        }
        case "D":
        case "PD":
        case "PDc": {
          entities.push(date);
          if (slot === "D") return date.text;
          const phrase = (date.precision === "day" ? "on " : "in ") + date.text;
          return slot === "PDc" ? phrase[0]!.toUpperCase() + phrase.slice(1) : phrase;
        }
        default:
          entities.push(money);
          return money.text;
      }
    });

    const source = template.startsWith("Hi team") || template.includes("：{O}那边") ? "chat" : pick(SOURCES.filter((s) => s !== "chat"));
    const doc: Document = { id: `doc-${String(101 + i * 3).padStart(4, "0")}`, source, language: lang, text, entities };
    if (source === "news" || source === "filing") {
      doc.url = `https://news.example.com/${lang}/2025/${doc.id}`;
      // keep key order stable: id, source, language, url, text, entities
      const { text: t, entities: e, ...head } = doc;
      documents.push({ ...head, text: t, entities: e });
    } else {
      documents.push(doc);
    }
  }
  return {
    model: "qwen2.5-72b-instruct",
    extractedAt: new Date(EXTRACTED_AT).toISOString().replace(/\.\d{3}Z$/, "Z"),
    documents,
  };
}

export const dataFile = fileURLToPath(new URL("./data/extraction-result.json", import.meta.url));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(fileURLToPath(new URL("./data/", import.meta.url)), { recursive: true });
  writeFileSync(dataFile, JSON.stringify(makeData(), null, 2) + "\n");
  console.log(`wrote ${dataFile}`);
}
