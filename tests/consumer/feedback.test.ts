// Feedback (SPEC 7.6): ideas and ratings with categories.
import { describe, expect, it } from "vitest";
import { failWrites, sql } from "../support/sql.ts";
import { consumerServer } from "./support.ts";

const t = consumerServer();

describe("POST /feedback/ideas", () => {
  it("stores the idea with its category (general by default); 2000 characters is the limit", async () => {
    const user = await t.user();
    const res = await t.api.post("/feedback/ideas", { token: user.accessToken, body: { idea: "  Sort by price  ", category: "lists" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, id: expect.any(Number), createdAt: expect.any(String) });
    const plain = await t.api.post("/feedback/ideas", { token: user.accessToken, body: { idea: "x".repeat(2000) } });
    expect(plain.status).toBe(201);
    const rows = await sql(t.server.databaseUrl, `SELECT kind, category, text, rating FROM "Feedback" WHERE "userId" = ? ORDER BY id`, [user.userId]);
    expect(rows).toEqual([
      { kind: "idea", category: "lists", text: "Sort by price", rating: null },
      { kind: "idea", category: "general", text: "x".repeat(2000), rating: null },
    ]);
  });

  it.each([
    [{}, "invalid_idea"],
    [{ idea: "" }, "invalid_idea"],
    [{ idea: "   " }, "invalid_idea"],
    [{ idea: 42 }, "invalid_idea"],
    [{ idea: ["a"] }, "invalid_idea"],
    [{ idea: "x".repeat(2001) }, "idea_too_long"],
    [{ idea: "Fine", category: "bogus" }, "invalid_category"],
    [{ idea: "Fine", category: 3 }, "invalid_category"],
  ])("400 for %j: %s", async (body, code) => {
    const user = await t.user();
    const res = await t.api.post("/feedback/ideas", { token: user.accessToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
    expect(await sql(t.server.databaseUrl, `SELECT 1 FROM "Feedback" WHERE "userId" = ?`, [user.userId])).toEqual([]);
  });

  it("a storage failure is 500 submission_failed", async () => {
    const user = await t.user();
    await failWrites(t.server.databaseUrl, "Feedback", "INSERT", "userId", user.userId);
    const res = await t.api.post("/feedback/ideas", { token: user.accessToken, body: { idea: "Lost" } });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("submission_failed");
  });
});

describe("POST /feedback/ratings", () => {
  it("stores ratings 1 to 5 with an optional category and comment", async () => {
    const user = await t.user();
    for (const rating of [1, 5]) {
      const res = await t.api.post("/feedback/ratings", { token: user.accessToken, body: { rating } });
      expect(res.status).toBe(201);
    }
    const full = await t.api.post("/feedback/ratings", { token: user.accessToken, body: { rating: 4, category: "widget", comment: " Nice " } });
    expect(full.status).toBe(201);
    const rows = await sql(t.server.databaseUrl, `SELECT kind, category, text, rating FROM "Feedback" WHERE "userId" = ? ORDER BY id`, [user.userId]);
    expect(rows).toEqual([
      { kind: "rating", category: "general", text: null, rating: 1 },
      { kind: "rating", category: "general", text: null, rating: 5 },
      { kind: "rating", category: "widget", text: "Nice", rating: 4 },
    ]);
  });

  it.each([
    [{}, "invalid_rating"],
    [{ rating: null }, "invalid_rating"],
    [{ rating: 0 }, "invalid_rating"],
    [{ rating: 6 }, "invalid_rating"],
    [{ rating: 3.5 }, "invalid_rating"],
    [{ rating: "5" }, "invalid_rating"],
    [{ rating: 3, category: "nope" }, "invalid_category"],
  ])("400 for %j: %s", async (body, code) => {
    const user = await t.user();
    const res = await t.api.post("/feedback/ratings", { token: user.accessToken, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(code);
  });

  it("a storage failure is 500 submission_failed", async () => {
    const user = await t.user();
    await failWrites(t.server.databaseUrl, "Feedback", "INSERT", "userId", user.userId);
    const res = await t.api.post("/feedback/ratings", { token: user.accessToken, body: { rating: 2 } });
    expect(res.status).toBe(500);
    expect(res.body.error).toBe("submission_failed");
  });
});
