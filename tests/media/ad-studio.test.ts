// The discontinued ad studio (SPEC 7.7): 410 everywhere except the two GETs
// old clients poll, and no credentials needed for any of it.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

const MESSAGE = "The ad studio was discontinued on 2026-08-30 and its data archived.";

describe("ad studio (SPEC 7.7)", () => {
  it("GET /ad-studio/health answers 200 discontinued", async () => {
    const res = await api.get("/ad-studio/health", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "discontinued", discontinued_at: "2026-08-30" });
  });

  it("GET /ad-studio/credits answers 200 with zero credits", async () => {
    const res = await api.get("/ad-studio/credits", { noApiKey: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ credits: 0, discontinued_at: "2026-08-30" });
  });

  it.each([
    ["GET", "/ad-studio"],
    ["GET", "/ad-studio/campaigns"],
    ["GET", "/ad-studio/campaigns/42/creatives"],
    ["POST", "/ad-studio/generate"],
    ["PUT", "/ad-studio/campaigns/42"],
    ["PATCH", "/ad-studio/campaigns/42"],
    ["DELETE", "/ad-studio/campaigns/42"],
    ["POST", "/ad-studio/health"],
    ["POST", "/ad-studio/credits"],
    ["DELETE", "/ad-studio/credits"],
  ])("%s %s answers 410 ad_studio_disabled", async (method, path) => {
    const res = await api.request(method, path, { noApiKey: true, body: method === "GET" ? undefined : { prompt: "x" } });
    expect(res.status).toBe(410);
    expect(res.body).toEqual({ error: "ad_studio_disabled", message: MESSAGE });
  });

  it("answers the same with credentials, and CORS preflights still work", async () => {
    const res = await api.post("/ad-studio/generate", { body: {} });
    expect(res.status).toBe(410);
    expect(res.body.error).toBe("ad_studio_disabled");
    const preflight = await api.request("OPTIONS", "/ad-studio/generate", {
      noApiKey: true,
      headers: { origin: "https://shop.example.com", "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(204);
  });

  it("does not swallow neighbouring paths", async () => {
    const res = await api.get("/ad-studios", { noApiKey: true });
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("not_found");
  });
});
