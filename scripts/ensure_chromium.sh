#!/bin/sh
# Installs Debian's Chromium for the browser tests where it is missing and we
# can (root with apt-get). Elsewhere the browser tests say they were skipped.
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
        && exit 0
fi
echo "No /usr/bin/chromium and no way to install it here: the browser tests will be skipped."
