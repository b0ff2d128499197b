#!/usr/bin/env bash
# Installs the pinned Schemathesis (and ruff, which formats and checks the generated hooks module) from PyPI into
# .venv-schemathesis/ in the checkout (git-ignored). Idempotent and quiet: a second run with the pins already in place
# does nothing and prints nothing. Needs python3 (3.10 or later) with venv.
#
#   scripts/schemathesis-install.sh      # then .venv-schemathesis/bin/st --version
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
RUFF_VERSION=0.17.6

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv="$root/.venv-schemathesis"
stamp="$venv/.installed"
want="schemathesis==$SCHEMATHESIS_VERSION ruff==$RUFF_VERSION"

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x "$venv/bin/st" ]; then
  exit 0
fi
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
# shellcheck disable=SC2086 # $want is two requirement specifiers
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check $want
echo "$want" > "$stamp"
