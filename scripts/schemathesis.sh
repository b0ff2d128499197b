#!/usr/bin/env bash
# A thin wrapper of `contracts schemathesis`: writes the Schemathesis project of one API (bundle flavour,
# schemathesis.toml, hooks) into a folder and runs it with the local Schemathesis that scripts/schemathesis-install.sh
# put in .venv-schemathesis/. Credentials come from the same environment variables as `contracts conform`.
#
#   scripts/schemathesis.sh <identity|links|catalog|pay> <base-url> [more schemathesis run options...]
#
# Environment: SCHEMATHESIS_PROJECT (the folder to write, default ./schemathesis-<api>).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: scripts/schemathesis.sh <identity|links|catalog|pay> <base-url> [st run options...]" >&2; exit 2; }
api=$1
base_url=$2
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
project=${SCHEMATHESIS_PROJECT:-$PWD/schemathesis-$api}
"$root/scripts/schemathesis-install.sh"
npx --prefix "$root" tsx "$root/bin/contracts.ts" schemathesis "$api" --out "$project" >&2
cd "$project"
exec "$root/.venv-schemathesis/bin/st" run "$api.openapi.json" --url "$base_url" "$@"
