// CSV as spreadsheets read it (RFC 4180): every field quoted when it holds a
// quote, comma or line break, quotes doubled, CRLF line ends; a text field
// that starts like a formula gets a leading apostrophe so a spreadsheet shows
// it rather than runs it (order and product titles come from outside).
const FORMULA = /^[=+\-@\t\r]/;

export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLines = (rows: Array<Array<string | number | null>>) => rows.map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
