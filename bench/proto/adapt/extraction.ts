/** examples/extraction JSON values ⇄ bench/proto/extraction.proto message objects (field names as in the .proto). */
import type { DateEntity, Document, Entity, ExtractionResult } from "../../../examples/extraction/gen/extraction-result.ts";
import type { toonbench } from "../gen/extraction.pbjs.js";
import { enumMap } from "./enums.ts";

type ExtractionResultMsg = toonbench.extraction.ExtractionResult.$Properties;
type DocumentMsg = toonbench.extraction.Document.$Properties;
type EntityMsg = toonbench.extraction.Entity.$Properties;

const source = enumMap<Document["source"]>("Source", ["news", "filing", "email", "chat", "report"]);
const language = enumMap<Document["language"]>("Language", ["en", "zh"]);
const precision = enumMap<DateEntity["precision"]>("DatePrecision", ["day", "month", "year"]);

/** The union's `type` const picks the oneof member; the const itself does not travel. */
function entityToMessage(e: Entity): EntityMsg {
  switch (e.type) {
    case "person": {
      const m: toonbench.extraction.PersonEntity.$Properties = { name: e.name, confidence: e.confidence };
      if (e.role !== undefined) m.role = e.role;
      return { person: m };
    }
    case "organization": {
      const m: toonbench.extraction.OrganizationEntity.$Properties = { name: e.name, confidence: e.confidence };
      if (e.ticker !== undefined) m.ticker = e.ticker;
      return { organization: m };
    }
    case "location": {
      const m: toonbench.extraction.LocationEntity.$Properties = { name: e.name, confidence: e.confidence };
      if (e.countryCode !== undefined) m.country_code = e.countryCode;
      if (e.lat !== undefined) m.lat = e.lat;
      if (e.lon !== undefined) m.lon = e.lon;
      return { location: m };
    }
    case "date":
      return { date: { text: e.text, value: e.value, precision: precision.toProto(e.precision), confidence: e.confidence } };
    case "money":
      return { money: { text: e.text, amount: e.amount, currency: e.currency, confidence: e.confidence } };
    default:
      throw new Error(`Entity: unknown type ${JSON.stringify((e as { type?: unknown }).type)}`);
  }
}

function entityFromMessage(m: EntityMsg): Entity {
  switch (m.kind) {
    case "person": {
      const p = m.person!;
      const e: Entity = { type: "person", name: p.name!, confidence: p.confidence! };
      if (p._role === "role") e.role = p.role!;
      return e;
    }
    case "organization": {
      const o = m.organization!;
      const e: Entity = { type: "organization", name: o.name!, confidence: o.confidence! };
      if (o._ticker === "ticker") e.ticker = o.ticker!;
      return e;
    }
    case "location": {
      const l = m.location!;
      const e: Entity = { type: "location", name: l.name!, confidence: l.confidence! };
      if (l._country_code === "country_code") e.countryCode = l.country_code!;
      if (l._lat === "lat") e.lat = l.lat!;
      if (l._lon === "lon") e.lon = l.lon!;
      return e;
    }
    case "date": {
      const d = m.date!;
      return { type: "date", text: d.text!, value: d.value!, precision: precision.fromProto(d.precision!), confidence: d.confidence! };
    }
    case "money": {
      const d = m.money!;
      return { type: "money", text: d.text!, amount: d.amount!, currency: d.currency!, confidence: d.confidence! };
    }
    default:
      // an Entity with no member set is valid protobuf but has no JSON equivalent
      throw new Error("Entity: no oneof member set");
  }
}

export function toMessage(v: ExtractionResult): ExtractionResultMsg {
  return {
    model: v.model,
    extracted_at: v.extractedAt,
    documents: v.documents.map((d): DocumentMsg => {
      const m: DocumentMsg = {
        id: d.id,
        source: source.toProto(d.source),
        language: language.toProto(d.language),
        text: d.text,
        entities: d.entities.map(entityToMessage),
      };
      if (d.url !== undefined) m.url = d.url;
      return m;
    }),
  };
}

export function fromMessage(m: ExtractionResultMsg): ExtractionResult {
  return {
    model: m.model!,
    extractedAt: m.extracted_at!,
    documents: (m.documents ?? []).map((d): Document => {
      const v: Document = {
        id: d.id!,
        source: source.fromProto(d.source!),
        language: language.fromProto(d.language!),
        text: d.text!,
        entities: (d.entities ?? []).map(entityFromMessage),
      };
      if (d._url === "url") v.url = d.url!;
      return v;
    }),
  };
}
