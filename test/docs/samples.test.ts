// The code samples of the guides and the ones generated for every operation of the reference (x-codeSamples of the
// readers' copy of each bundle) cannot rot: every TypeScript block is type-checked against the real clients (as a
// user would import them, `@platform/contracts/<api>`), every curl command must name an operation of the contract,
// send the credential header it requires and, when its body is literal JSON, a body the contract accepts, and every
// `contracts` command must use options that its --help lists.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  API_NAMES,
  type ApiName,
  describeErrors,
  joinPointer,
  loadBundle,
  loadContract,
} from "../../lib/contract/index.js";
import { operationsOf } from "../../scripts/docs/document.js";
import { readerBundle, samplesOf } from "../../scripts/docs/reader-bundle.js";
import { contractsBin, repoRoot, runToEnd } from "../support/processes.js";
import { typeCheckInChildProcess } from "./support/sample-typecheck.js";
import { allSamples, extractSamples, type Sample } from "./support/samples.js";

/** The samples generated for every operation, named after the reference page that shows them. */
const generatedSamples: Sample[] = API_NAMES.flatMap((api) =>
  operationsOf(readerBundle(api, loadBundle(api))).flatMap((op) =>
    samplesOf(op.operation).map((sample) => ({
      page: `docs/reference/${api}/${op.operationId}`,
      line: 1,
      language: sample.lang === "Shell" ? "sh" : "ts",
      code: sample.source,
    })),
  ),
);
const samples = [...allSamples(), ...generatedSamples];
const typescriptSamples = samples.filter((s) => s.language === "ts" || s.language === "typescript");
const shellSamples = samples.filter((s) => s.language === "sh" || s.language === "bash" || s.language === "shell");

interface CurlCommand {
  sample: Sample;
  text: string;
  method: string;
  url: URL;
  headers: Map<string, string>;
  body: string | undefined;
}

/** Shell words of each command line of a sample: quotes may span lines, `\` joins lines, `#` starts a comment. */
function shellCommands(code: string): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < code.length; i++) {
    const char = code[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === "\\" && quote === '"' && i + 1 < code.length) word = (word ?? "") + code[++i];
      else word = (word ?? "") + char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= "";
    } else if (char === "\\" && code[i + 1] === "\n") {
      i++;
    } else if (char === "\n" || char === ";") {
      endWord();
      if (words.length > 0) commands.push(words);
      words = [];
    } else if (char === " " || char === "\t") {
      endWord();
    } else if (char === "#" && word === undefined) {
      while (i + 1 < code.length && code[i + 1] !== "\n") i++;
    } else {
      word = (word ?? "") + char;
    }
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
}

/** The curl commands of a shell sample, with their method, URL, headers and body. */
function curlCommands(sample: Sample): CurlCommand[] {
  return shellCommands(sample.code)
    .map((words) => words.slice(words.findIndex((w) => !/^\w+=/.test(w))))
    .filter((words) => words[0] === "curl")
    .map((words) => {
      const text = words.join(" ");
      const headers = new Map<string, string>();
      let method: string | undefined;
      let body: string | undefined;
      let url: string | undefined;
      for (let i = 1; i < words.length; i++) {
        const word = words[i]!;
        if (word === "-X" || word === "--request") method = words[++i];
        else if (word === "-H" || word === "--header") {
          const [name, ...value] = words[++i]!.split(":");
          headers.set(name!.trim().toLowerCase(), value.join(":").trim());
        } else if (
          word === "-d" ||
          word === "--data" ||
          word === "--data-raw" ||
          word === "--data-binary" ||
          word === "--data-urlencode"
        ) {
          body = body === undefined ? words[++i] : `${body}&${words[++i]}`;
        } else if (/^https?:\/\//.test(word)) url = word;
      }
      if (!url) throw new Error(`${sample.page}:${sample.line}: no URL in \`${text}\``);
      return {
        sample,
        text,
        method: (method ?? (body === undefined ? "GET" : "POST")).toUpperCase(),
        url: new URL(url),
        headers,
        body,
      };
    });
}

/** The API a local URL belongs to: ports 4010-4013 are the mocks, 4020-4023 the sandbox, in API_NAMES order. */
function apiOfPort(port: string): ApiName | undefined {
  const match = /^40[12]([0-3])$/.exec(port);
  return match ? API_NAMES[Number(match[1])] : undefined;
}

describe("docs code samples", () => {
  it("the guides have TypeScript and curl samples for every API", () => {
    for (const api of API_NAMES) {
      const page = `docs/guide/${api}.md`;
      expect(typescriptSamples.filter((s) => s.page === page).length, page).toBeGreaterThan(0);
      expect(shellSamples.filter((s) => s.page === page && /\bcurl\s/.test(s.code)).length, page).toBeGreaterThan(0);
    }
  });

  it("every operation has a generated curl and TypeScript sample", () => {
    const operations = API_NAMES.flatMap((api) =>
      loadContract(api)
        .operations()
        .map((op) => `docs/reference/${api}/${op.operationId}`),
    );
    expect(new Set(generatedSamples.filter((s) => s.language === "ts").map((s) => s.page))).toEqual(
      new Set(operations),
    );
    expect(
      new Set(generatedSamples.filter((s) => s.language === "sh" && /^curl /m.test(s.code)).map((s) => s.page)),
    ).toEqual(new Set(operations));
  });

  // One program checks the real samples and a broken one (a second program would cost as much again): the real ones
  // must pass, and the broken one must be caught at its line.
  const brokenSample = extractSamples(
    join(repoRoot, "docs/guide/broken.md"),
    [
      "```ts",
      'import { createLinksClient } from "@platform/contracts/links";',
      'const links = createLinksClient({ baseUrl: "http://127.0.0.1:4011", apiKey: "k" });',
      'await links.GET("/api/campaign", {});',
      "```",
    ].join("\n"),
  )[0]!;
  let diagnostics: Promise<string[]> | undefined;
  const typeCheckOnce = () => (diagnostics ??= typeCheckInChildProcess([...typescriptSamples, brokenSample]));
  const isBroken = (diagnostic: string) => diagnostic.startsWith(`${brokenSample.page}:`);

  it("every TypeScript sample type-checks against the real clients", async () => {
    expect((await typeCheckOnce()).filter((diagnostic) => !isBroken(diagnostic))).toEqual([]);
  });

  it("the type check catches a sample that misuses a client", async () => {
    const errors = (await typeCheckOnce()).filter(isBroken);
    expect(errors.join("\n")).toMatch(/docs\/guide\/broken\.md:4: .*"\/api\/campaign"/);
  });
});

describe("docs shell samples", () => {
  const commands = shellSamples
    .flatMap(curlCommands)
    .filter((c) => c.url.hostname === "127.0.0.1" && apiOfPort(c.url.port));

  it("the guides call every API with curl", () => {
    expect(new Set(commands.map((c) => apiOfPort(c.url.port)))).toEqual(new Set(API_NAMES));
  });

  it.each(commands.map((c) => [`${c.sample.page}:${c.sample.line} ${c.method} ${c.url.pathname}`, c] as const))(
    "%s matches the contract",
    (_name, command) => {
      const api = apiOfPort(command.url.port)!;
      const contract = loadContract(api);
      const op = contract.route(command.method, command.url.pathname)?.operation;
      expect(op, `${command.text}\nis not an operation of ${api}`).toBeDefined();
      const requirement = op!.operation.security?.[0] ?? {};
      for (const schemeName of Object.keys(requirement)) {
        const scheme = contract.deref(contract.document.components!.securitySchemes![schemeName]!);
        const header = scheme.type === "apiKey" ? String(scheme.name).toLowerCase() : "authorization";
        expect(command.headers.has(header), `${command.text}\nlacks the ${header} header of ${schemeName}`).toBe(true);
      }
      if (command.body !== undefined && !command.body.includes("$")) {
        const mediaType = command.headers.get("content-type") ?? "application/x-www-form-urlencoded";
        const value = mediaType.includes("json")
          ? JSON.parse(command.body)
          : Object.fromEntries(new URLSearchParams(command.body));
        const result = contract.validate(
          joinPointer(op!.pointer, "requestBody", "content", mediaType, "schema"),
          value,
        );
        expect(result.valid, `${command.text}\n${describeErrors(result.errors)}`).toBe(true);
      }
    },
  );

  const helps = new Map<string, Promise<string>>();
  const helpOf = (command: string) => {
    if (!helps.has(command))
      helps.set(
        command,
        runToEnd(process.execPath, [contractsBin, command, "--help"], repoRoot).then((run) => {
          if (run.status !== 0) throw new Error(`contracts ${command} --help exited ${run.status}: ${run.stderr}`);
          return run.stdout;
        }),
      );
    return helps.get(command)!;
  };

  const cliCalls = shellSamples.flatMap((sample) =>
    shellCommands(sample.code)
      .map((words) => words.slice(words[0] === "npx" ? 1 : 0))
      .filter((words) => words[0] === "contracts")
      .map((words) => ({ sample, words })),
  );

  it.each(cliCalls.map((call) => [`${call.sample.page}:${call.sample.line} ${call.words.join(" ")}`, call] as const))(
    "%s uses options the CLI has",
    async (_name, { words }) => {
      const [, command, ...args] = words;
      const help = await helpOf(command!);
      for (const option of args.filter((arg) => arg.startsWith("--")))
        expect(help, `contracts ${command} ${option}`).toContain(option);
    },
  );

  it("reads curl commands the way the shell does", () => {
    const code = [
      "# a comment with curl http://127.0.0.1:4011/nothing",
      `KEY=abc curl -X PUT \\`,
      `  -H 'A: b' -d '{"x":`,
      `  1}' http://127.0.0.1:4011/api/domain/7/update   # trailing comment`,
    ].join("\n");
    const [command, ...more] = curlCommands({ page: "docs/x.md", line: 1, language: "sh", code });
    expect(more).toEqual([]);
    expect(command).toMatchObject({ method: "PUT", body: '{"x":\n  1}' });
    expect(command!.headers.get("a")).toBe("b");
    expect(command!.url.pathname).toBe("/api/domain/7/update");
    expect(loadContract("links").route("PUT", "/api/domain/7/update")?.operation.operationId).toBe("updateDomain");
  });
});
