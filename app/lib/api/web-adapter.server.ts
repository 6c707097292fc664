// The API core behind a Web Request (the Remix resource route, used by
// `remix vite:dev`): Request in, Response out.
import { discardStreamBody, readStreamBody } from "./body.server";
import type { ApiReply, ApiRequest } from "./http";

export function apiRequestOfWeb(request: Request): ApiRequest {
  const url = new URL(request.url);
  return {
    method: request.method,
    url: request.url,
    pathname: url.pathname,
    search: url.search,
    headers: request.headers,
    readBody: (limit) => readStreamBody(request.body, request.headers.get("content-length"), limit),
    bodyStream: () => streamChunks(request.body),
    discardBody: () => discardStreamBody(request.body, request.bodyUsed),
  };
}

/** A Web body as an async iterable; stopping early cancels the rest. */
async function* streamChunks(stream: ReadableStream<Uint8Array> | null): AsyncGenerator<Uint8Array> {
  if (!stream) return;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function responseOfReply(reply: ApiReply): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(reply.headers.map)) {
    if (Array.isArray(value)) for (const line of value) headers.append(name, line);
    else headers.set(name, value);
  }
  const body = NULL_BODY_STATUSES.has(reply.status) ? null : reply.body;
  return new Response(body as BodyInit | null, { status: reply.status, headers });
}
