#!/usr/bin/env node
// `npx wish …`: the operator CLI (app/cli/main.ts), run through tsx.
import { register } from "tsx/esm/api";

register();
await import("./main.ts");
