// The breaking-change differ as a library: `import { diffDocuments } from "@platform/contracts/diff"`.
export { type Change, type DiffResult, type Direction } from "./changes.js";
export { diffDocuments } from "./compare.js";
export { loadSpecFile } from "./load.js";
export { formatReport } from "./report.js";
