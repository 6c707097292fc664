// Every relative link of README.md and docs/**/*.md points to a file that
// exists (and every #anchor to a heading of it), and every repository path
// they name in a code span exists, so moving a guide or a module cannot
// leave a dead reference behind. External links (http:, mailto:) are not fetched.
// Prose is wrapped at 100 columns, so the guides read in an editor and their
// diffs show what changed (see proseLinesOverLimit for what is exempt).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith(".md") ? [file] : [];
  });
}

const files = [path.join(root, "README.md"), ...markdownFiles(path.join(root, "docs"))];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");

function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/```[\s\S]*?```/g, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

/** Links of a markdown text, outside code blocks and code spans: [text](target) and ![alt](target). */
function links(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
}

/**
 * Files and folders of the repository a guide names in a code span (`app/…`, `tests/…`, `prisma/…`,
 * `extensions/…`, `docs/…`, `public/…`), so a module that moves cannot leave its old address behind.
 * A name must look like a path: a file with an extension or a folder ending in "/"; patterns
 * (`*`, `{…}`, `<…>`) and Shopify's webhook topics (`app/uninstalled`) are not paths. Folders the
 * tests write and git ignores (tests/screenshots/) need not exist.
 */
function namedPaths(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "");
  return [...prose.matchAll(/`((?:app|tests|prisma|extensions|docs|public)\/[\w./$-]*(?:\.[a-z]+|\/))`/g)].map((m) => m[1]!);
}

const ignoredFolders = readFileSync(path.join(root, ".gitignore"), "utf8")
  .split("\n")
  .filter((line) => line.endsWith("/"));

const MAX_COLUMNS = 100;

/**
 * A line that cannot be wrapped: one link, image, `<URL>` or code span, optionally after a list
 * marker and an opening parenthesis and before closing punctuation; or one test name cited as
 * › "name" (docs/shopify-review.md keeps each on one line: tests/unit/shopify-review.test.ts
 * checks the cited tests exist).
 */
const unbreakable = /^\s*(?:[-*+] |\d+\. )?\(?(?:!?\[[^\]]*\]\([^)\s]+\)|<[a-z]+:[^>\s]+>|`[^`]+`|› "[^"]+")[).,;:]*$/;

/**
 * Prose lines of a markdown text longer than MAX_COLUMNS, as "line: text". Exempt: fenced code
 * blocks (their content is code or output), table rows (a table row cannot be wrapped) and
 * unbreakable lines (a single link, image, URL or code span).
 */
function proseLinesOverLimit(text: string): string[] {
  const over: string[] = [];
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (fenced || /^\s*\|/.test(line) || [...line].length <= MAX_COLUMNS || unbreakable.test(line)) return;
    over.push(`${index + 1}: ${line}`);
  });
  return over;
}

describe("documentation links", () => {
  it("finds the README and the guides", () => {
    expect(files.map((f) => path.relative(root, f))).toEqual(expect.arrayContaining(["README.md", "docs/api.md"]));
  });

  it.each(files.map((f) => [path.relative(root, f), f]))("%s: every relative link points to an existing file", (_name, file) => {
    const dead: string[] = [];
    for (const target of links(readFileSync(file, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split("#") as [string, string | undefined];
      const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
      if (!existsSync(resolved)) {
        dead.push(target);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchors(resolved).has(anchor)) dead.push(target);
    }
    expect(dead).toEqual([]);
  });
});

describe("documentation paths", () => {
  it.each(files.map((f) => [path.relative(root, f), f]))("%s: every file or folder of the repository it names exists", (_name, file) => {
    const gone = namedPaths(readFileSync(file, "utf8")).filter((named) => !existsSync(path.join(root, named)) && !ignoredFolders.includes(named));
    expect(gone).toEqual([]);
  });

  it("takes file and folder names, not topics or patterns", () => {
    const text = "`app/lib/money.ts`, `tests/screenshots/`, `app/uninstalled`, `app/routes/webhooks.<topic>.tsx`, `docs/*.md`\n```\n`app/x.ts`\n```";
    expect(namedPaths(text)).toEqual(["app/lib/money.ts", "tests/screenshots/"]);
  });
});

describe("documentation prose", () => {
  it.each(files.map((f) => [path.relative(root, f), f]))(`%s: no prose line is longer than ${MAX_COLUMNS} columns`, (_name, file) => {
    expect(proseLinesOverLimit(readFileSync(file, "utf8"))).toEqual([]);
  });

  it("exempts only code blocks, table rows and unbreakable lines", () => {
    const long = "word ".repeat(30).trim();
    const link = `[${long}](https://example.com/a)`;
    const text = [
      "```",
      long,
      "```",
      `| ${long} |`,
      `- ${link},`,
      `(<https://example.com/${"a".repeat(120)}>).`,
      "`" + long + "`.",
      `  › "${long}";`,
      long,
      `${link} and more`,
    ].join("\n");
    expect(proseLinesOverLimit(text).map((line) => line.split(":")[0])).toEqual(["9", "10"]);
  });
});
