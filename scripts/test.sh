#!/usr/bin/env bash
# `npm test`: the test loop's parts one after another (scripts/test-parts.sh), every part even when
# an earlier one failed, then each part's summary and the total. `npm test -- e2e` runs one part;
# the parts are lint, typecheck, build, unit, server, e2e (and server-postgres, which the CI adds).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/test-parts.sh
if [ $# -gt 0 ]; then
  run_named_parts "$@" || exit
else
  run_named_parts "${DEFAULT_PARTS[@]}"
fi
finish_parts
