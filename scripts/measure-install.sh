#!/usr/bin/env bash
# Installs a packed tarball into an empty project, as a user would (`npm install <tarball>`), and
# prints what it brings: the packages installed and the size of node_modules.
#   scripts/measure-install.sh condense-0.1.0.tgz
set -euo pipefail
tarball="$(realpath "$1")"
app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
cd "$app"
echo '{ "name": "measure", "private": true, "type": "module" }' >package.json
npm install --no-audit --no-fund --prefer-offline "$tarball" >/dev/null 2>&1
packages="$(find node_modules -name package.json -not -path '*/node_modules/*/node_modules/*/node_modules/*' \
  | xargs grep -l '"version"' | xargs -n1 dirname | grep -cE 'node_modules/(@[^/]+/)?[^/@]+$')"
size="$(du -sm node_modules | cut -f1)"
echo "packages: $packages, node_modules: ${size} MB, tarball: $(du -k "$tarball" | cut -f1) KB"
