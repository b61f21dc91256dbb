#!/usr/bin/env bash
# `npm test`: the test loop's parts (scripts/test-parts.sh), every part even when an earlier one
# failed, then each part's summary and the total: lint, typecheck, build, unit and test-database one
# after another, then the integration suite (server), most browser tests (e2e-beside; beside the
# integration suite with VITRINE_TEST_BESIDE=1), then those that measure against the clock
# (e2e-alone, one file at a time) (scripts/test-parts.sh). `npm test -- e2e`
# runs one part; named parts run one after another (server-postgres is the CI's addition).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/test-parts.sh
if [ $# -gt 0 ]; then
  run_named_parts "$@" || exit
else
  run_named_parts "${FIRST_PARTS[@]}"
  run_integration_and_browser server
  run_named_parts e2e-alone
fi
finish_parts
