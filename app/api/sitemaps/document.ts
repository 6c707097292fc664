// A sitemap document as a response: its text chunks streamed as the client
// reads them, cached for an hour.

/** A stream of text chunks, pulled as the client reads. */
function streamOf(chunks: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (err) {
        controller.error(err);
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

/** The answer for a sitemap document of `contentType` (XML or JSON). */
export function sitemapResponse(chunks: AsyncGenerator<string>, contentType: "application/xml" | "application/json"): Response {
  return new Response(streamOf(chunks), {
    headers: { "Content-Type": `${contentType}; charset=utf-8`, "Cache-Control": "public, max-age=3600" },
  });
}
