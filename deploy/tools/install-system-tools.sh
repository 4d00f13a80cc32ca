#!/usr/bin/env bash
# System packages the platform and its test suite use beyond Python: redis-server and
# redis-cli (the Redis that `make run` and the suite start when none answers, and the
# suite's Redis Cluster), Prometheus with promtool (the monitoring tests) and Chromium
# (the web pages' tests drive it headless through Playwright). Installed
# from Debian's archive when missing and this user may; otherwise it says what to install
# and the tests that need them skip (outside CI).
#   install-system-tools.sh                 everything missing
#   install-system-tools.sh redis-server    only that (what the launcher asks for)
set -u
wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(prometheus redis-server chromium)
missing=()
for package in "${wanted[@]}"; do
  case "$package" in
    prometheus) command -v promtool >/dev/null && command -v prometheus >/dev/null || missing+=(prometheus) ;;
    redis-server) command -v redis-server >/dev/null && command -v redis-cli >/dev/null \
                    || missing+=(redis-server redis-tools) ;;
    chromium) command -v chromium >/dev/null || missing+=(chromium) ;;
    *) echo "unknown system tool $package" >&2; exit 2 ;;
  esac
done
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
