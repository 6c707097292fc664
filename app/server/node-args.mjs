// V8 options of the server process (`npm start`, and the test and bench
// harnesses, which start app/server/start.mjs the same way). A larger young
// generation lets the short-lived objects of each request die young instead
// of being promoted and collected by slower full collections: measured with
// `npm run bench`, it roughly halved p99 at half the maximum rate (GET /api/v1/
// 85 → 33 ms at ~19k req/s, GET /auth/user 21.5 → 16.8 ms at ~12k req/s).
// Workers of a cluster inherit them (node:cluster forks with process.execArgv);
// package.json's start script spells them out for `npm start`.
export const SERVER_NODE_ARGS = ["--max-semi-space-size=32"];
