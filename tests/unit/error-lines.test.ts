// What a log line says about an error (app/lib/log.server.ts errorSummary):
// Prisma's message with its call site's source lines, as Prisma builds it
// outside production, keeps only the sentence that says what failed.
import { describe, expect, it } from "vitest";
import { errorSummary } from "../../app/lib/log.server.ts";

/** A Prisma client error's message: header, location, the call site's lines (number, space, code; → marks the call), the cause. */
const prismaMessage = (callSite: string) =>
  [
    "",
    "Invalid `prisma.listItem.create()` invocation in",
    "/srv/app/build/server/index.js:1:48213",
    "",
    "  1 " + callSite,
    "→ 2 " + callSite,
    "Unique constraint failed on the fields: (`wishlistId`,`productId`)",
  ].join("\n");

describe("error lines", () => {
  it("a Prisma error from a bundled build logs the failure, not the build's minified code", () => {
    const minified = "import{a as b}from\"x\";const c=async(d)=>{await e.listItem.create({data:d})};".repeat(200);
    const err = Object.assign(new Error(prismaMessage(minified)), { code: "P2002" });
    expect(errorSummary(err)).toEqual({ code: "P2002", error: "Unique constraint failed on the fields: (`wishlistId`,`productId`)" });
  });

  it("other messages keep lines that start with a number", () => {
    expect(errorSummary(new Error("3 items could not be saved\n2 of them twice"))).toEqual({ error: "3 items could not be saved 2 of them twice" });
  });
});
