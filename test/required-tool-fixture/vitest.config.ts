// Runs the fixture on its own (test/required-tool.test.ts): its file is not a test of the kit's.
import { defineConfig } from "vitest/config";

export default defineConfig({ test: { include: ["*.fixture.ts"] } });
