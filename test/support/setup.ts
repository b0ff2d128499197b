// Runs in every test file before its tests (vitest.config.ts setupFiles).
import { afterAll } from "vitest";
import { runFileCleanups } from "./file-end.js";

afterAll(runFileCleanups);
