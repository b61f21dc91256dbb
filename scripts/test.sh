#!/usr/bin/env bash
# `npm test`: the test loop's parts (scripts/test-parts.sh), every part even when an earlier one
# failed, then each part's summary and the total: lint, typecheck, build and unit one after another,
# then the browser tests (e2e-beside) beside the integration suite (server) and the rest of them
# (e2e-after, scripts/test-parts.sh). `npm test -- e2e` runs one
# part; named parts run one after another (server-postgres is the CI's addition).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/test-parts.sh
if [ $# -gt 0 ]; then
  run_named_parts "$@" || exit
else
  run_named_parts "${FIRST_PARTS[@]}"
  run_beside e2e-beside -- server e2e-after
fi
finish_parts
