// Shared by the client behaviour tests: small local servers that enforce the rules the way a live deployment would,
// the secrets they use, and the check that no secret leaks into an error.
import { expect, vi } from "vitest";
import { afterEachFile } from "../support/file-end.js";
import { startTestServer, type TestServer } from "../support/http.js";

export const LINKS_KEY = "links-secret-key-7d1f";
export const SELLER_KEY = "seller-secret-key-93ab";
export const PAY_SECRET = "pay-signing-secret-51c0";
export const CLIENT_SECRET = "oidc-client-secret-e8a2";
const SECRETS = [LINKS_KEY, SELLER_KEY, PAY_SECRET, CLIENT_SECRET];

export const ACCOUNT = {
  error: 0,
  data: {
    id: 1,
    email: "demo@example.com",
    username: "demo",
    avatar: "https://cdn.example.com/a.png",
    status: "pro",
    expires: "2027-01-01 00:00:00",
    registered: "2024-01-15 09:30:00",
  },
};

const servers: TestServer[] = [];
afterEachFile(() => Promise.all(servers.splice(0).map((s) => s.close())));

/** Starts a local server for this test file; it is closed after the file's tests. */
export async function serve(handler: Parameters<typeof startTestServer>[0]): Promise<string> {
  const server = await startTestServer(handler);
  servers.push(server);
  return server.url;
}

/** No secret in the error's text, stack, JSON or cause. */
export function expectNoSecrets(error: unknown): void {
  const texts = [
    String(error),
    (error as Error)?.stack ?? "",
    JSON.stringify(error) ?? "",
    JSON.stringify((error as { cause?: unknown })?.cause ?? null) ?? "",
  ];
  for (const text of texts) for (const secret of SECRETS) expect(text).not.toContain(secret);
}

/** Every line written to the console while `run` runs. */
export async function consoleLines(run: () => Promise<void>): Promise<string[]> {
  const logged: string[] = [];
  const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" "))),
  );
  try {
    await run();
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
  return logged;
}

export { SECRETS };
