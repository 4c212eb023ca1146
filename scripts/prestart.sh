#!/bin/sh
# `npm start`'s prestart step: when dist/ is newer than every input of the build (the list is
# scripts/buildState.mjs's BUILD_INPUTS), `find` says so without starting a second node (a few
# milliseconds against some 100-300 ms); otherwise, or without `find`, scripts/build.mjs --if-stale
# decides and builds.
if [ -f dist/.build-stamp ] && command -v find >/dev/null 2>&1; then
  newer=$(find src commands assets migrations migrations-pg tsconfig.json tsconfig.build.json package.json -newer dist/.build-stamp 2>/dev/null | head -n 1)
  [ -z "$newer" ] && exit 0
fi
exec node scripts/build.mjs --if-stale
