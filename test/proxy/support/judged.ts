// Traffic through a judging proxy (the core of `contracts proxy`) on an ephemeral loopback port: the report when it
// stopped, the lines it printed live, and its redaction for anything the test prints.
import type { Credentials } from "../../../conformance/apis.js";
import { startJudgingProxy } from "../../../conformance/proxy/judging.js";
import type { RunReport } from "../../../conformance/report/report.js";
import type { ApiName } from "../../../lib/contract/index.js";

export interface JudgedTraffic {
  report: RunReport;
  lines: string[];
  redact: (text: string) => string;
}

export async function judgedTraffic(
  api: ApiName,
  target: string,
  traffic: (base: string) => Promise<unknown>,
  credentials?: Credentials,
): Promise<JudgedTraffic> {
  const lines: string[] = [];
  const proxy = await startJudgingProxy({
    api,
    target: new URL(target),
    host: "127.0.0.1",
    port: 0,
    maxBodyBytes: 1024 * 1024,
    ...(credentials ? { credentials } : {}),
    onLine: (line) => lines.push(line),
  });
  let report: RunReport;
  try {
    await traffic(proxy.url);
  } finally {
    report = await proxy.stop(1000);
  }
  return { report, lines, redact: (text) => proxy.judge.redact(text) };
}
