// When the seeded occasions fall (GET /discover/seasonal, /discover/occasions).
// Personal occasions (birthday, wedding, baby, …) have no calendar date.
// Dates are the gift-giving day, in UTC calendar days (YYYY-MM-DD); where
// markets differ, the German one is used for `de` markets, else the US one.

const iso = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);

/** Easter Sunday (Gregorian computus, Meeus/Jones/Butcher). */
function easter(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

const easterPlus = (y: number, days: number) => {
  const [m, d] = easter(y);
  return new Date(Date.UTC(y, m - 1, d) + days * 86_400_000).toISOString().slice(0, 10);
};

/** The n-th Sunday of a month. */
function nthSunday(y: number, month: number, n: number): string {
  const first = new Date(Date.UTC(y, month - 1, 1)).getUTCDay();
  return iso(y, month, 1 + ((7 - first) % 7) + (n - 1) * 7);
}

// First night of Hanukkah (Hebrew calendar; a table, as it follows no Gregorian rule).
const HANUKKAH: Record<number, string> = {
  2024: "2024-12-25",
  2025: "2025-12-14",
  2026: "2026-12-04",
  2027: "2027-12-24",
  2028: "2028-12-12",
  2029: "2029-12-01",
  2030: "2030-12-20",
  2031: "2031-12-09",
  2032: "2032-11-27",
};

type Rule = (year: number, german: boolean) => string | null;

const RULES: Record<string, Rule> = {
  christmas: (y) => iso(y, 12, 24),
  easter: (y) => easterPlus(y, 0),
  "valentines-day": (y) => iso(y, 2, 14),
  "mothers-day": (y) => nthSunday(y, 5, 2),
  // Germany: Ascension Day (Vatertag); US: third Sunday of June.
  "fathers-day": (y, german) => (german ? easterPlus(y, 39) : nthSunday(y, 6, 3)),
  hanukkah: (y) => HANUKKAH[y] ?? null,
  // Season starts: graduation in June, school in August/September (German Einschulung mid-August to September).
  graduation: (y) => iso(y, 6, 15),
  "school-start": (y) => iso(y, 8, 15),
};

/** Whether an occasion has a calendar date. */
export const isDated = (slug: string) => slug in RULES;

/** The next date of a dated occasion on or after `today` (YYYY-MM-DD); null for personal occasions. */
export function nextDate(slug: string, today: string, market?: string): string | null {
  const rule = RULES[slug];
  if (!rule) return null;
  const german = (market ?? "").toLowerCase().startsWith("de");
  const year = Number(today.slice(0, 4));
  for (const y of [year, year + 1]) {
    const date = rule(y, german);
    if (date && date >= today) return date;
  }
  return null;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);
