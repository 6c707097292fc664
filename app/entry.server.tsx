import { PassThrough } from "node:stream";
import type { EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer, isRouteErrorResponse } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { log, errorFields } from "~/lib/log.server";
import { applySecurityHeaders, newNonce } from "~/lib/http/security-headers";
import { NonceContext } from "~/lib/http/nonce";

export const streamTimeout = 5000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  const nonce = newNonce();
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const document = (
      <NonceContext.Provider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceContext.Provider>
    );
    const { pipe, abort } = renderToPipeableStream(document, {
      nonce,
      [readyEvent]() {
        shellRendered = true;
        const body = new PassThrough();
        responseHeaders.set("Content-Type", "text/html");
        applySecurityHeaders(responseHeaders, new URL(request.url).pathname, nonce);
        resolve(
          new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
        );
        pipe(body);
      },
      onShellError(error: unknown) {
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) log.error("render error", errorFields(error));
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}

// Loader/action data (single fetch) and resource-route responses of pages get the same headers.
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  applySecurityHeaders(response.headers, new URL(request.url).pathname);
  return response;
};

// Errors thrown in loaders and actions: logged with their stack here, never sent to the client.
// 4xx route responses (no route, no action for a POST) are answers, not failures.
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  log.error("unhandled error", { method: request.method, path: new URL(request.url).pathname, ...errorFields(error) });
};

export { startBackgroundJobs, stopBackgroundJobs } from "~/background.server";
export { closeDatabase } from "~/db.server";
export { handleApiRequest } from "~/api/node-entry.server";
export { handleSdkRequest } from "~/api/script-files.server";
export { handleSharePageRequest } from "~/pages/share/share-page.server";
