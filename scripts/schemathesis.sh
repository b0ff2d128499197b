#!/usr/bin/env bash
# Runs Schemathesis (the Python reference tool for property-based API testing) from its Docker image against a
# deployment, with the same bundled contract, credentials and rate limit as `contracts conform`. For users who have
# Docker; everyone else uses `contracts conform`, which needs only npm.
#
#   scripts/schemathesis.sh <identity|links|catalog> <base-url> [more schemathesis run options...]
#
# Credentials come from the same environment variables as `contracts conform` (LINKS_TOKEN, CATALOG_API_KEY,
# IDENTITY_ACCESS_TOKEN). They are never put on a command line: the generated schemathesis.toml names them as
# ${VAR}, Schemathesis reads them inside the container, and docker passes them with `-e NAME` (the name only).
#
# Environment: SCHEMATHESIS_IMAGE (default schemathesis/schemathesis:stable), SCHEMATHESIS_MAX_EXAMPLES (default 20),
# CONFORM_RATE_LIMIT (e.g. 30/m; default: the contract's x-rate-limit), SCHEMATHESIS_REPORTS (default
# ./schemathesis-report), SCHEMATHESIS_DRY_RUN=1 (print the docker command and the config instead of running them).
set -euo pipefail

usage() {
  echo "usage: scripts/schemathesis.sh <identity|links|catalog> <base-url> [schemathesis run options...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
api=$1
base_url=$2
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bundle="$root/generated/openapi/$api.json"

case "$api" in
  links)
    [ -n "${LINKS_TOKEN:-}" ] || { echo "schemathesis.sh: links needs LINKS_TOKEN" >&2; exit 2; }
    secret_env=LINKS_TOKEN
    headers='Authorization = "Bearer ${LINKS_TOKEN}"'
    ;;
  catalog)
    [ -n "${CATALOG_API_KEY:-}" ] || { echo "schemathesis.sh: catalog needs CATALOG_API_KEY" >&2; exit 2; }
    secret_env=CATALOG_API_KEY
    headers='x-seller-api-key = "${CATALOG_API_KEY}"'
    ;;
  identity)
    secret_env=IDENTITY_ACCESS_TOKEN
    headers=''
    [ -n "${IDENTITY_ACCESS_TOKEN:-}" ] && headers='Authorization = "Bearer ${IDENTITY_ACCESS_TOKEN}"'
    ;;
  pay)
    echo "schemathesis.sh: pay signs every body (HMAC of the exact bytes) with a fresh nonce, which Schemathesis cannot do without a hooks module; use \`contracts conform pay\`" >&2
    exit 2
    ;;
  *) usage ;;
esac
[[ "$base_url" =~ ^https?:// ]] || { echo "schemathesis.sh: the base URL must start with http:// or https://, got \"$base_url\"" >&2; exit 2; }
[ -f "$bundle" ] || { echo "schemathesis.sh: $bundle is missing; run npm run bundle" >&2; exit 2; }

# The contract's own rate limit (info.x-rate-limit), unless CONFORM_RATE_LIMIT says otherwise.
rate_limit=${CONFORM_RATE_LIMIT:-$(node -e '
  const limit = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).info["x-rate-limit"];
  if (limit) process.stdout.write(`${limit.limit}/${limit.windowSeconds === 60 ? "m" : limit.windowSeconds === 1 ? "s" : "h"}`);
' "$bundle")}

config_dir=$(mktemp -d)
trap 'rm -rf "$config_dir"' EXIT
{
  echo "# Written by scripts/schemathesis.sh; secrets are read from the environment inside the container."
  [ -n "$rate_limit" ] && echo "rate-limit = \"$rate_limit\""
  echo "generation.max-examples = ${SCHEMATHESIS_MAX_EXAMPLES:-20}"
  if [ -n "$headers" ]; then
    echo "[headers]"
    echo "$headers"
  fi
} > "$config_dir/schemathesis.toml"

reports=${SCHEMATHESIS_REPORTS:-$PWD/schemathesis-report}
mkdir -p "$reports"
command=(docker run --rm --network host
  -v "$bundle:/spec/$api.json:ro"
  -v "$config_dir:/config:ro"
  -v "$reports:/reports"
  -e "$secret_env"
  "${SCHEMATHESIS_IMAGE:-schemathesis/schemathesis:stable}"
  --config-file /config/schemathesis.toml
  run "/spec/$api.json" --url "$base_url" --checks all --report junit --report-dir /reports "$@")

if [ "${SCHEMATHESIS_DRY_RUN:-}" = 1 ]; then
  printf '%q ' "${command[@]}"
  echo
  cat "$config_dir/schemathesis.toml"
  exit 0
fi
"${command[@]}"
