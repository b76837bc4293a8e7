#!/usr/bin/env node
// The kit ships TypeScript sources; tsx compiles them on the fly so there is no build step.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
