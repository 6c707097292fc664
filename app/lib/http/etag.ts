// If-None-Match against one ETag (RFC 9110 13.1.2: weak comparison).

/** Whether one of the header's tags (weak or strong, or `*`) names `etag`. */
export function etagMatches(header: string | null | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
