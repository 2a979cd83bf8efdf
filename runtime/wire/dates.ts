/**
 * Lossless compact forms for `format: "date-time"` and `format: "date"` strings. Only the canonical UTC forms
 * are compacted (`2025-01-15T10:30:00Z`, `2025-01-15T10:30:00.123Z`, `2025-01-15`), and only when formatting
 * the parsed value gives back the very same string; every other string travels as a literal.
 */

const MS_PER_DAY = 86400000;

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000000; // poisons the sum on a non-digit
}

function num2(s: string, i: number): number {
  return digit(s, i) * 10 + digit(s, i + 1);
}

function num4(s: string, i: number): number {
  return digit(s, i) * 1000 + digit(s, i + 1) * 100 + digit(s, i + 2) * 10 + digit(s, i + 3);
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

const PAD2: string[] = [];
for (let i = 0; i < 100; i++) PAD2.push(i < 10 ? "0" + i : String(i));

const CACHE_SIZE = 512;
const cacheDays = new Float64Array(CACHE_SIZE).fill(NaN);
const cacheText: (string | undefined)[] = new Array(CACHE_SIZE).fill(undefined);

/** `YYYY-MM-DD` of a day number; undefined outside years 0000..9999. */
export function formatDate(days: number): string | undefined {
  const slot = days & (CACHE_SIZE - 1);
  if (cacheDays[slot] === days) return cacheText[slot];
  const text = formatDateUncached(days);
  cacheDays[slot] = days;
  cacheText[slot] = text;
  return text;
}

function formatDateUncached(days: number): string | undefined {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  if (y < 0 || y > 9999) return undefined;
  return PAD2[(y / 100) | 0]! + PAD2[y % 100]! + "-" + PAD2[m]! + "-" + PAD2[d]!;
}

/** Days in month m (1..12) of year y (proleptic Gregorian). */
function monthDays(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** Day number of the canonical `YYYY-MM-DD` at `i` in `s` (hyphens checked here), or NaN. */
function daysAt(s: string, i: number): number {
  if (s.charCodeAt(i + 4) !== 45 || s.charCodeAt(i + 7) !== 45) return NaN;
  const y = num4(s, i);
  const m = num2(s, i + 5);
  const d = num2(s, i + 8);
  // 4 digits: y is 0..9999 (a non-digit makes it negative); rejects 2025-02-30 and friends
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > monthDays(y, m)) return NaN;
  return daysFromCivil(y, m, d);
}

/** Day number of a canonical `YYYY-MM-DD`, or undefined when `s` is not exactly that form. */
export function parseDate(s: string): number | undefined {
  if (s.length !== 10) return undefined;
  const days = daysAt(s, 0);
  return days === days ? days : undefined;
}

/**
 * Milliseconds since the epoch of a canonical UTC date-time, with `withMillis` telling which of the two
 * forms it was; undefined for any other string.
 */
export function parseDateTime(s: string): { ms: number; withMillis: boolean } | undefined {
  const ms = dateTimeMs(s);
  return ms === ms ? { ms, withMillis: s.length === 24 } : undefined;
}

/** parseDateTime without the result object: the milliseconds, or NaN (with millis iff `s.length === 24`). */
export function dateTimeMs(s: string): number {
  const n = s.length;
  if (n !== 20 && n !== 24) return NaN;
  if (s.charCodeAt(n - 1) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */) return NaN;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return NaN;
  const days = daysAt(s, 0);
  const hh = num2(s, 11);
  const mm = num2(s, 14);
  const ss = num2(s, 17);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59) return NaN; // NaN days falls through to NaN
  let ms = days * MS_PER_DAY + ((hh * 60 + mm) * 60 + ss) * 1000;
  if (n === 24) {
    if (s.charCodeAt(19) !== 46) return NaN;
    const frac = digit(s, 20) * 100 + digit(s, 21) * 10 + digit(s, 22);
    if (frac < 0) return NaN;
    ms += frac;
  }
  return ms;
}

/** `HH:MM:` for each minute of the day, built on first use. */
let HHMM: string[] | undefined;

function hhmmTable(): string[] {
  const t: string[] = [];
  for (let i = 0; i < 1440; i++) t.push(PAD2[(i / 60) | 0]! + ":" + PAD2[i % 60]! + ":");
  return t;
}

/** Inverse of parseDateTime. */
export function formatDateTime(ms: number, withMillis: boolean): string | undefined {
  const days = Math.floor(ms / MS_PER_DAY);
  const date = formatDate(days);
  if (date === undefined) return undefined;
  const rest = (ms - days * MS_PER_DAY) | 0; // 0 .. 86399999: int32 arithmetic from here on
  const frac = rest % 1000;
  const sec = ((rest - frac) / 1000) | 0;
  const ss = sec % 60;
  const time = date + "T" + (HHMM ??= hhmmTable())[((sec - ss) / 60) | 0]! + PAD2[ss]!;
  if (!withMillis) return frac === 0 ? time + "Z" : undefined;
  return time + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac + "Z";
}
