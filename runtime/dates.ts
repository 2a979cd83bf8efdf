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

/** `YYYY-MM-DD` of a day number; undefined outside years 0000..9999. */
export function formatDate(days: number): string | undefined {
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

/** Day number of a canonical `YYYY-MM-DD`, or undefined when `s` is not exactly that form. */
export function parseDate(s: string): number | undefined {
  if (s.length !== 10 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45) return undefined;
  const y = num4(s, 0);
  const m = num2(s, 5);
  const d = num2(s, 8);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31) return undefined;
  const days = daysFromCivil(y, m, d);
  return formatDate(days) === s ? days : undefined; // rejects 2025-02-30 and friends
}

/**
 * Milliseconds since the epoch of a canonical UTC date-time, with `withMillis` telling which of the two
 * forms it was; undefined for any other string.
 */
export function parseDateTime(s: string): { ms: number; withMillis: boolean } | undefined {
  const n = s.length;
  if (n !== 20 && n !== 24) return undefined;
  if (s.charCodeAt(n - 1) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */) return undefined;
  if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return undefined;
  const days = parseDate(s.slice(0, 10));
  if (days === undefined) return undefined;
  const hh = num2(s, 11);
  const mm = num2(s, 14);
  const ss = num2(s, 17);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59 || ss < 0 || ss > 59) return undefined;
  let ms = days * MS_PER_DAY + ((hh * 60 + mm) * 60 + ss) * 1000;
  if (n === 24) {
    if (s.charCodeAt(19) !== 46) return undefined;
    const frac = digit(s, 20) * 100 + digit(s, 21) * 10 + digit(s, 22);
    if (frac < 0) return undefined;
    ms += frac;
  }
  return { ms, withMillis: n === 24 };
}

/** Inverse of parseDateTime. */
export function formatDateTime(ms: number, withMillis: boolean): string | undefined {
  const days = Math.floor(ms / MS_PER_DAY);
  const date = formatDate(days);
  if (date === undefined) return undefined;
  let rest = ms - days * MS_PER_DAY;
  const frac = rest % 1000;
  rest = (rest - frac) / 1000;
  const ss = rest % 60;
  rest = (rest - ss) / 60;
  const mm = rest % 60;
  const hh = (rest - mm) / 60;
  const time = date + "T" + PAD2[hh]! + ":" + PAD2[mm]! + ":" + PAD2[ss]!;
  if (!withMillis) return frac === 0 ? time + "Z" : undefined;
  return time + "." + (frac < 10 ? "00" : frac < 100 ? "0" : "") + frac + "Z";
}
