// Every way a secret could be written in an output, computed here independently of conformance/report/secrets.ts: raw,
// URL-encoded (both forms and cases), JSON (once and twice), HTML-escaped (with each quote style), base64 (padded,
// unpadded, URL-safe) and hex. The secrets tests assert that none of them appears anywhere.
export function secretForms(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  const html = secret.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const bytes = Buffer.from(secret);
  return [
    ...new Set([
      secret,
      percent,
      percent.toLowerCase(),
      form,
      form.toLowerCase(),
      JSON.stringify(secret).slice(1, -1),
      JSON.stringify(JSON.stringify(secret)).slice(1, -1),
      html,
      html.replace(/"/g, "&quot;").replace(/'/g, "&#39;"),
      html.replace(/"/g, "&quot;").replace(/'/g, "&apos;"),
      secret.replace(/'/g, "&apos;").replace(/"/g, "&quot;"),
      bytes.toString("base64"),
      bytes.toString("base64url"),
      bytes.toString("base64").replace(/=+$/, ""),
      bytes.toString("hex"),
      bytes.toString("hex").toUpperCase(),
    ]),
  ];
}
