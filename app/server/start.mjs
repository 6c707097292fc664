#!/usr/bin/env node
// `npm start`: loads the TypeScript server entry through tsx.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
