// Money: prices are integers in minor units of the currency's own exponent
// (EUR 2490 = €24.90, JPY 1500 = ¥1,500, KWD 12345 = KWD 12.345). This is the
// one place that turns amounts into minor units and minor units into text.
// Pure and dependency-free: the server, the hosted pages' browser bundles and
// the SDK import it without pulling in server code.

/** Price columns are 32-bit integers; nothing above this is a price. */
export const MAX_MINOR = 2_147_483_647;
const MAX_INPUT = 40;

// The exponent is ISO 4217's minor unit, which is what Intl reports for most
// codes (CLDR's `digits`). Where CLDR disagrees with ISO 4217, or has changed
// between ICU versions (so Node and a browser could disagree), it is pinned
// here, because a stored integer must mean the same amount in every process
// and after every upgrade. The rule for a pin: the exponent of the amounts our
// sources send. Shopify's `price` strings and scraped pages carry the ISO
// minor unit (a HUF price arrives as "1500.00", a JPY one as "1500" or
// "1500.00" with a zero fraction), so the ISO exponent never loses a digit.
// CLDR's 0 for HUF, TWD, IDR … is a display convention (no coins below 1),
// applied when formatting, not when storing.
const PINNED: Record<string, number> = {
  // ISO 2; CLDR 0 in current ICU (Node 20's CLDR 48), 2 in older ones or the reverse.
  HUF: 2, TWD: 2, IDR: 2, COP: 2, PKR: 2, RSD: 2, MNT: 2, CRC: 2, UZS: 2,
  IRR: 2, LAK: 2, MMK: 2, SYP: 2, YER: 2, ALL: 2, AFN: 2, LBP: 2, SOS: 2,
  SLL: 2, SLE: 2, MGA: 2, KPW: 2, AMD: 2, MRU: 2,
  // ISO 0; CLDR agrees today, older data (and some shops' themes) used 2.
  ISK: 0, CLP: 0, UGX: 0, KRW: 0, VND: 0, PYG: 0,
  // ISO 3; CLDR says 0 for the dinar.
  IQD: 3,
};

const exponents = new Map<string, number>();

/** ISO 4217 code in upper case ("eur" → "EUR"), else null. */
export function currencyCode(value: unknown): string | null {
  if (typeof value !== "string" || value.length > 8) return null;
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) ? code : null;
}

/** Digits after the decimal point of a currency's minor unit (JPY 0, EUR 2, KWD 3); 2 for a missing or unknown code. */
export function currencyExponent(currency: string | null | undefined): number {
  const code = currencyCode(currency);
  if (!code) return 2;
  const pinned = PINNED[code];
  if (pinned !== undefined) return pinned;
  let digits = exponents.get(code);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    if (!(digits >= 0 && digits <= 4)) digits = 2;
    if (exponents.size < 400) exponents.set(code, digits);
  }
  return digits;
}

/** The currency argument: missing means "no currency" (exponent 2); present but malformed means no answer. */
function currencyArg(currency: string | null | undefined): { code: string | null } | null {
  if (currency === null || currency === undefined || currency === "") return { code: null };
  const code = currencyCode(currency);
  return code ? { code } : null;
}

/**
 * A decimal amount in minor units of `currency`: Shopify's price strings
 * ("19.99", "1500.00"), JSON numbers (19.99), English grouping ("1,500.00").
 * The decimal string is read digit by digit (no float arithmetic); digits
 * beyond the exponent round half up ("19.995" EUR → 2000). Negative, malformed,
 * over-long or too-large values (above MAX_MINOR) are null. Locale forms
 * ("1.299,00") are the scraper's to normalise first.
 */
export function toMinor(value: unknown, currency: string | null | undefined): number | null {
  const arg = currencyArg(currency);
  if (!arg) return null;
  let s: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) return null;
    s = String(value);
    // String() uses exponent notation below 1e-6 and from 1e21: nothing and too much.
    if (/e/i.test(s)) return value < 1 ? 0 : null;
  } else if (typeof value === "string") {
    if (value.length > MAX_INPUT) return null;
    s = value.trim();
  } else {
    return null;
  }
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d+))?$/.exec(s);
  if (!match || (match[1] === undefined && match[2] === undefined)) return null;
  const exp = currencyExponent(arg.code);
  const whole = (match[1] ?? "0").replace(/,/g, "").replace(/^0+(?=\d)/, "");
  const fraction = match[2] ?? "";
  if (whole.length > 12) return null;
  const kept = fraction.slice(0, exp).padEnd(exp, "0");
  let minor = Number(whole + kept);
  if ((fraction[exp] ?? "0") >= "5") minor += 1;
  return Number.isSafeInteger(minor) && minor <= MAX_MINOR ? minor : null;
}

/**
 * Shopify's storefront money (`/products/x.js`, Liquid's `price`): an integer
 * of amount × 100 whatever the currency (¥1,500 is 150000), in minor units of
 * the currency's own exponent (¥1,500 → 1500, KWD 12.340 → 12340).
 */
export function shopifyCentsToMinor(cents: unknown, currency: string | null | undefined): number | null {
  if (typeof cents !== "number" || !Number.isSafeInteger(cents) || cents < 0 || currencyArg(currency) === null) return null;
  // Integer arithmetic only (no decimal string: this is all widget.js carries of money).
  const shift = currencyExponent(currency) - 2;
  const minor = shift >= 0 ? cents * 10 ** shift : Math.round(cents / 10 ** -shift);
  return minor <= MAX_MINOR ? minor : null;
}

/** Minor units as a plain decimal string with the currency's digits (2490 EUR → "24.90", 1500 JPY → "1500", 12345 KWD → "12.345"), as CSVs and APIs carry amounts. */
export function toDecimal(minor: unknown, currency: string | null | undefined): string | null {
  const arg = currencyArg(currency);
  if (!arg || typeof minor !== "number" || !Number.isSafeInteger(minor)) return null;
  const exp = currencyExponent(arg.code);
  const digits = String(Math.abs(minor)).padStart(exp + 1, "0");
  const sign = minor < 0 ? "-" : "";
  return exp === 0 ? sign + digits : `${sign}${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
}

/** Minor units as a number of major units (2490 EUR → 24.9), for APIs that take a number (Shopify billing, Flow). */
export function toAmount(minor: unknown, currency: string | null | undefined): number | null {
  const decimal = toDecimal(minor, currency);
  return decimal === null ? null : Number(decimal);
}

// Building an Intl.NumberFormat costs far more than using one: one per locale, currency and digits.
const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, code: string | null, exp: number, fractional: boolean): Intl.NumberFormat {
  const key = `${locale}|${code ?? ""}|${fractional ? exp : ""}`;
  let format = formats.get(key);
  if (format) return format;
  const options: Intl.NumberFormatOptions = code
    ? { style: "currency", currency: code }
    : { minimumFractionDigits: exp, maximumFractionDigits: exp };
  try {
    format = new Intl.NumberFormat(locale, options);
  } catch {
    format = new Intl.NumberFormat("en-US", options); // a malformed locale tag
  }
  // Intl shows fewer digits than the minor unit for some codes (HUF 0): a
  // whole amount keeps the locale's form, a fraction is not rounded away.
  if (fractional && (format.resolvedOptions().maximumFractionDigits ?? exp) < exp) {
    format = new Intl.NumberFormat(format.resolvedOptions().locale, { ...options, minimumFractionDigits: exp, maximumFractionDigits: exp });
  }
  if (formats.size < 1000) formats.set(key, format);
  return format;
}

/**
 * Minor units as people read money in `locale` ("de-DE": 2490 EUR → "24,90 €",
 * "en-US": 1500 JPY → "¥1,500"). Without a currency the plain number with two
 * decimals. Null for a malformed currency code or an amount that is not a
 * safe integer.
 */
export function formatMoney(minor: unknown, currency: string | null | undefined, locale = "en-US"): string | null {
  const arg = currencyArg(currency);
  const amount = toAmount(minor, arg?.code ?? null);
  if (!arg || amount === null) return null;
  const exp = currencyExponent(arg.code);
  const fractional = exp > 0 && (minor as number) % 10 ** exp !== 0;
  const tag = typeof locale === "string" && locale.length <= 35 ? locale : "en-US";
  return numberFormat(tag, arg.code, exp, fractional).format(amount);
}

/**
 * A price per unit that may be a fraction of the minor unit, as people read it
 * in `locale` ("en-US": 2.5 USD minor units → "$0.025"): up to two digits past
 * the currency's own. Null for a malformed currency code or amount.
 */
export function formatUnitPrice(minor: number, currency: string, locale = "en-US"): string | null {
  const arg = currencyArg(currency);
  if (!arg?.code || !Number.isFinite(minor) || Math.abs(minor) > MAX_MINOR) return null;
  const exp = currencyExponent(arg.code);
  const options = { style: "currency", currency: arg.code, minimumFractionDigits: exp, maximumFractionDigits: exp + 2 } as const;
  const tag = locale.length <= 35 ? locale : "en-US";
  try {
    return new Intl.NumberFormat(tag, options).format(minor / 10 ** exp);
  } catch {
    return new Intl.NumberFormat("en-US", options).format(minor / 10 ** exp);
  }
}
