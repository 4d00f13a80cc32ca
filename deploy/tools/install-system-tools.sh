#!/usr/bin/env bash
# System packages the test suite uses beyond Python: Prometheus and promtool (the
# monitoring tests) and redis-server (when no Redis answers). Installed from Debian's
# archive when missing and this user may; otherwise it says what to install and the
# tests that need them skip (outside CI).
set -u
missing=()
command -v promtool >/dev/null && command -v prometheus >/dev/null || missing+=(prometheus)
command -v redis-server >/dev/null || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing ${missing[*]} from Debian's archive"
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || echo "could not install ${missing[*]}; the tests that need them will say so"
else
  echo "please install: ${missing[*]} (e.g. apt-get install ${missing[*]}); the tests that need them will say so"
fi
exit 0
