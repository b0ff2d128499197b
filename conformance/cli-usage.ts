// The help of `contracts conform` (--help): every option, what it does and its default.
export const CONFORM_USAGE = `contracts conform <api> --base-url <url> [credentials] [options]
       contracts conform <api> --har <file> | --from-json <report> [--base-url <url>] [options]
  Send generated requests (examples, boundary values, random valid and invalid data) to a deployment and check
  every response against the contract. Read-only unless --allow-writes.

Credentials (each also read from the environment variable shown, which keeps secrets out of shell history):
  links     --token <key>                                   LINKS_TOKEN
  catalog   --api-key <key>                                 CATALOG_API_KEY
            [--read-only-api-key <key>]                     CATALOG_READ_API_KEY (scope_enforcement)
  pay       --shop-id <id> --secret <key>                   PAY_SHOP_ID, PAY_SECRET
  identity  --client-id <id> --client-secret <secret>       IDENTITY_CLIENT_ID, IDENTITY_CLIENT_SECRET
            --redirect-uri <uri> [--access-token <token>]   IDENTITY_REDIRECT_URI, IDENTITY_ACCESS_TOKEN
            [--sign-in <field>=<value>]...                  IDENTITY_SIGN_IN="login=alice&password=..."
            [--post-logout-redirect-uri <uri>]              IDENTITY_POST_LOGOUT_REDIRECT_URI
            [--second-client-id <id> --second-client-secret <secret>]  another client of the provider, for
                                                            refresh_token_client_bound: IDENTITY_SECOND_CLIENT_ID,
                                                            IDENTITY_SECOND_CLIENT_SECRET

Recorded traffic (nothing is sent; the same checks and reports; production traffic that may not be tested):
  --har <file>            judge the exchanges of a HAR 1.2 file (browser developer tools, Playwright's recordHar,
                          Insomnia, mitmproxy); --base-url, when given, sets which host is the API's (else the first
                          entry that matches an operation); entries elsewhere or matching no operation are listed
  --from-json <report>    judge again the exchanges a previous run's --json report recorded

Signing in (identity flow checks; without a completed sign-in the sign_in check fails and the run exits 1):
  (default)               plain HTTP: submit the provider's HTML forms with the --sign-in values in the fields of
                          those names, pressing only the button a person would press (accept, never cancel)
  --browser               headless Chromium (playwright-core; CONFORM_CHROMIUM names the executable) drives the real
                          pages, JavaScript included; --sign-in login=<..> and password=<..> fill the fields found by
                          name, id, label, placeholder or autocomplete token; consent pages are approved
  --sign-in-script <file.mjs>  with --browser: its default export \`async (page, fields) => {}\` gets through the
                          pages (MFA, test-mode captchas, several steps) before the driver goes on
  --manual                print each URL to open; a person signs in and pastes back the address the browser reached

Options:
  --base-url <url>        the deployment (env CONFORM_BASE_URL)
  --max-requests <n>      a budget: at most n requests (cleanup included); every operation, kind of case and check
                          is reached once before any twice, then random data deepens the run; what the budget
                          does not reach is reported as not reached. Default with a rate-limited contract: two
                          minutes of its cap read-only, three with --allow-writes (links: 60, 90); none: no budget
  --max-duration <time>   a budget in time (90s, 2m, 1m30s): no case starts that would end after it
  --max-examples <n>      valid and invalid cases per operation, each, within the budget (default 20)
  --seed <n>              same seed, same requests (default: random, printed)
  --operation <id>        only this operationId; repeatable (a named update or delete brings its resource's
                          stateful sequence: the run creates the resource it acts on)
  --check <name>          only this check; repeatable     --exclude-check <name>  all but this one; repeatable
  --allow-writes          also create, update and delete; everything created is deleted at the end
  --max-writes <n>        with --allow-writes, at most n creations of resources the contract gives no way to
                          delete (default 5), also from invalid data or no credentials a lenient server accepts;
                          one kept for each stateful sequence; listed as left behind
  --nonce <mode>          pay: seconds (default: never ahead of the wall clock in whole seconds, waiting for the
                          next second), milliseconds, microseconds or counter:<start>
  --rate-limit <rate>     at most this many requests: 30 (per minute), 30/min, 5/s, 900/h (default: the
                          contract's x-rate-limit, if any); the live X-RateLimit-* headers are always followed too
  --timeout <ms>          per request (default 10000)
  --concurrency <n>       operations in parallel (default 1); an API whose contract declares a rate limit
                          (links) always runs one request at a time
  --max-response-time <ms>  every response must arrive within <ms> (check max_response_time)
  --junit <file>          write a JUnit XML report      --json <file>   write a JSON report
  --html <file>           write a self-contained HTML report (coverage matrix, failures with reproductions)
  --list-checks           print the checks and what each catches
  --config <file>         check a whole deployment: the file names per API the base URL, the environment
                          variables of its credentials, its rate limit, baseline and options (YAML or JSON:
                          apis: { links: { baseUrl: <url>, credentials: { token: <VARIABLE> } }, ... });
                          --json/--junit/--html files get the API in their name ({api}, or .<api> before the extension)
  --shard <i>/<n>         only the i-th of n deterministic parts of the work (one CI job each); join the
                          --json reports with: contracts conform merge <json...> [--json f] [--junit f]
  --strict                a broken x-assumption fails the run instead of being a warning
  --baseline <file>       failures listed in <file> are reported as known and do not fail the run; listed
                          failures no longer seen are reported as fixed (those found by random data: only
                          with the baseline's --seed)
  --overlay <file>        judge against the contract with this OpenAPI Overlay 1.0 applied (the deployment's known
                          deviations, from \`contracts overlay record\`): they pass, anything new fails; the report
                          names the overlay and which of its deviations the run confirmed or no longer saw
  --update-baseline       write this run's failures to the --baseline file and exit 0
  --verbose               the console report shows the known causes in full and every observation (the --json
                          and --html reports always hold them all)

Exit codes: 0 nothing failed, 1 a check failed, a check that applies could not run (exclude it with
--exclude-check) or every selected check was skipped, 2 usage error (also a named operation the options keep
from running, or only checks of other APIs selected) or unreachable target, 130 interrupted.
`;
