// A shopper's rescrape of an item racing the item's deletion (another tab, a
// collaborator): the page is still being read when the item goes, and the
// rescrape answers 404 not_found like any request about a deleted item, never
// a 500. The product page is a stand-in that holds its answer until the
// test has deleted the item.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiFor, type Api } from "../support/api.ts";
import { startInProcess, type InProcessServer } from "../support/in-process.ts";
import { freePort } from "../support/server.ts";
import { until } from "../support/wait.ts";

let server: InProcessServer;
let api: Api;
let page: Server;
let pagePort: number;
/** Page requests waiting for the test to let them answer. */
const held: Array<() => void> = [];

beforeAll(async () => {
  pagePort = await freePort();
  page = createServer((_req, res) => {
    held.push(() => {
      res.writeHead(200, { "content-type": "text/html" });
      const offer = { "@type": "Offer", price: "19.00", priceCurrency: "EUR" };
      res.end(`<html><head><title>Mug</title><script type="application/ld+json">${JSON.stringify({ "@type": "Product", name: "Mug", offers: offer })}</script></head></html>`);
    });
  });
  await new Promise<void>((r) => page.listen(pagePort, "127.0.0.1", r));
  server = await startInProcess({ FETCH_TEST_ALLOW_HOSTS: `127.0.0.1:${pagePort}` });
  api = await apiFor(server);
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await server?.stop();
  await new Promise((r) => page?.close(r));
});

describe("rescrape racing a delete", () => {
  it("answers 404 when the item is deleted while its page is read", async () => {
    const user = await api.anonymousUser();
    const init = await api.post("/hosted/me/init", { token: user.accessToken });
    const listToken = init.body.list.id as string;
    // A title of its own: the save does not read the page.
    const saved = await api.post("/hosted/save", {
      token: user.accessToken,
      body: { wishlistId: init.body.list.db_id, product: { url: `http://127.0.0.1:${pagePort}/shop/mug-${Date.now()}`, title: "Mug" } },
    });
    expect(saved.status, saved.text).toBe(200);
    const itemPath = `/hosted/lists/${listToken}/items/${saved.body.item_id}`;

    const rescrape = api.post(`${itemPath}/rescrape`, { token: user.accessToken });
    await until("the page is being read", () => held.length > 0);
    const deleted = await api.delete(itemPath, { token: user.accessToken });
    expect(deleted.status, deleted.text).toBe(200);
    held.shift()!();

    const res = await rescrape;
    expect(res.status, res.text).toBe(404);
    expect(res.body).toEqual({ error: "not_found", message: expect.any(String) });
  });
});
