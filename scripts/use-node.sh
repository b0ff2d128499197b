# Puts Node <line> first on PATH for the calling shell (`source scripts/use-node.sh 22`) when the machine's Node is
# another line. The runtime comes from the npm registry's `node` package, installed once into .tmp/node-<line>/
# (git-ignored); its preinstall script, which links the platform's binary package, is allowed by name there.
line="${1:?usage: source scripts/use-node.sh <major line>}"
if [[ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$line" ]]; then
  runtime="$PWD/.tmp/node-$line"
  if [[ ! -x "$runtime/node_modules/.bin/node" ]]; then
    mkdir -p "$runtime"
    printf '{"private":true,"allowScripts":{"node":true}}\n' >"$runtime/package.json"
    npm install --prefix "$runtime" --no-audit --no-fund --loglevel=error "node@$line" >/dev/null
  fi
  export PATH="$runtime/node_modules/.bin:$PATH"
fi
echo "Node $(node --version), npm $(npm --version)"
