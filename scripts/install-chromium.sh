#!/bin/sh
# Install Debian's Chromium for the browser tests (tests/browser), only when it is missing.
# Needs root and apt-get: scripts/setup-test calls it only then (elsewhere the browser tests skip).
# Playwright's own browser download does not work here; the tests launch /usr/bin/chromium.
set -eu
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq chromium >/dev/null
/usr/bin/chromium --version 2>/dev/null | grep -v '^$' || true
