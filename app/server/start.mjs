#!/usr/bin/env node
// `npm start`: loads the TypeScript server entry through tsx (cluster
// workers re-run this file, and so load it the same way).
import { register } from "tsx/esm/api";

register();
const { runServer } = await import("./cluster.ts");
runServer();
