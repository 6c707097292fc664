// A moved list keeps its name unless the account has a list of that name (docs/identity.md, Joins and merges).
import { describe, expect, it } from "vitest";
import { freeListName } from "~/domains/lists/merge.server";

describe("freeListName", () => {
  it("keeps a free name and numbers a taken one from 2, case-insensitively", () => {
    expect(freeListName("Birthday", ["Christmas"])).toBe("Birthday");
    expect(freeListName("Birthday", ["birthday"])).toBe("Birthday (2)");
    expect(freeListName("Birthday", ["Birthday", "Birthday (2)"])).toBe("Birthday (3)");
    expect(freeListName("Birthday", [])).toBe("Birthday");
  });
});
