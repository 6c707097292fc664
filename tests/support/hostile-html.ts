// 2 MB documents built to make a naive HTML reader super-linear (unclosed
// tags, text between void tags, unclosed comments and attribute values, script
// openers). The unit test checks what the scanner makes of them; the benchmark
// (tests/bench/cpu.ts) measures its cost per byte against a linear pass.
export const HOSTILE_DOCUMENTS: readonly (readonly [document: string, tagsOpened: number])[] = [
  ["<div>".repeat(400_000), 400_000],
  ["x<br>".repeat(400_000), 400_000],
  ["<!--".repeat(500_000), 0],
  ['<a x="'.repeat(300_000), 0],
  ["<script>".repeat(250_000), 1],
];
