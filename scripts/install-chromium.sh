#!/usr/bin/env bash
# Installs Debian's chromium for the report's browser test (playwright-core drives it; nothing
# downloads a browser build). Does nothing when /usr/bin/chromium is there already. Needs root
# (or sudo) and Debian's package mirror.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then exit 0; fi
sudo=""
if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
