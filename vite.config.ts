import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { apiRoutes } from "./app/routes";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  server: { port: Number(process.env.PORT ?? 3000), fs: { allow: ["app", "node_modules"] } },
  plugins: [
    remix({
      ignoredRouteFiles: ["**/.*"],
      routes: apiRoutes,
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_lazyRouteDiscovery: true,
        v3_singleFetch: true,
      },
    }),
    tsconfigPaths(),
  ],
  build: { assetsInlineLimit: 0 },
  // Bundled into the server build, so only the components and icons the admin uses are
  // loaded: importing the whole of Polaris and its icons was a third of every server start.
  ssr: { noExternal: true, external: ["@prisma/client", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "better-sqlite3", "pg", "sharp", "react", "react-dom", "@remix-run/node", "@remix-run/react", "@remix-run/server-runtime", "@remix-run/router"] },
});
