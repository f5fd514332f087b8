#!/bin/sh
# Install Debian's Chromium for the browser tests (tests/browser), only when it is missing.
# Needs root and apt-get: scripts/setup-test calls it only then (elsewhere the browser tests skip).
# Playwright's own browser download does not work here; the tests launch Debian's headless shell
# (/usr/bin/chromium-headless-shell, a third less CPU), or /usr/bin/chromium without it.
set -eu
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium chromium-headless-shell >/dev/null
/usr/bin/chromium --version 2>/dev/null | grep -v '^$' || true
