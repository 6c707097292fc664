// CPU work the suite must not time: measured here as ratios to a linear
// reference in the same run. The HTML scanner reads each hostile document of
// tests/support/hostile-html.ts; the reference is one pass over the same text
// (char codes, counting "<"). A ratio that grows with the document's size
// would mean super-linear reading. `npm run bench` runs it before the HTTP bench.
import { scanHtml } from "~/lib/html-scan";
import { HOSTILE_DOCUMENTS } from "../support/hostile-html.ts";

const ROUNDS = 5;

function medianMs(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

function linearPass(text: string): number {
  let opened = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 60) opened++;
  return opened;
}

console.log("HTML scanner on hostile documents (median of 5; ratio = scanner / one linear pass, same run)");
for (const [document] of HOSTILE_DOCUMENTS) {
  const rows = [document.length / 2, document.length].map((length) => {
    const text = document.slice(0, length);
    const scan = medianMs(() => scanHtml(text, { open: () => {}, text: () => {}, rawText: () => {} }));
    const reference = medianMs(() => linearPass(text));
    return { length, scan, ratio: scan / Math.max(reference, 0.01) };
  });
  const [half, full] = rows;
  console.log(
    `  ${JSON.stringify(document.slice(0, 10))}…  ${(full!.length / 2 ** 20).toFixed(1)} MB: ${full!.scan.toFixed(1)} ms, ×${full!.ratio.toFixed(1)} the linear pass; ` +
      `size doubled → time ×${(full!.scan / Math.max(half!.scan, 0.01)).toFixed(2)}`,
  );
}
