# The test loop's parts, shared by `npm test` (scripts/test.sh) and the CI (.ci/run). Source it,
# call `run_part` / `run_vitest_part` (or `run_named_parts`) for each part, then `finish_parts`.
# A part that fails never stops the ones after it: each part's result is recorded, and
# `finish_parts` prints every part's summary line and the total, and fails if any part failed.
# (Meant to be sourced by bash; it sets no shell options of its own.)

TEST_RESULTS_DIR="${TEST_RESULTS_DIR:-test-results}"
mkdir -p "$TEST_RESULTS_DIR"
# One line per part that ran: name, exit status, seconds, its Vitest JSON report (or "-").
PARTS_FILE="$TEST_RESULTS_DIR/parts.tsv"
: >"$PARTS_FILE"

# run_part NAME CMD…: runs CMD, prints its output, records its exit status and time.
run_part() {
  local name="$1"
  shift
  run_part_with_report "$name" - "$@"
}

# run_vitest_part NAME VITEST_ARGS…: `vitest run VITEST_ARGS…`, keeping a JSON report for the
# part's test counts and its slowest files.
run_vitest_part() {
  local name="$1"
  shift
  local report="$TEST_RESULTS_DIR/$name.json"
  rm -f "$report"
  run_part_with_report "$name" "$report" npx vitest run "$@" \
    --reporter=default --reporter=json --outputFile.json="$report"
}

run_part_with_report() {
  local name="$1" report="$2"
  shift 2
  printf '\n=== part %s: %s\n' "$name" "$*"
  local started=$SECONDS status=0
  "$@" || status=$?
  local seconds=$((SECONDS - started))
  printf '=== part %s: %s after %d s\n' "$name" "$([ "$status" = 0 ] && echo passed || echo "FAILED (exit $status)")" "$seconds"
  printf '%s\t%s\t%s\t%s\n' "$name" "$status" "$seconds" "$report" >>"$PARTS_FILE"
}

# The parts by name, as `npm test` runs them (and `npm test -- NAME…` runs some of them), one after
# another: the first five, the integration suite, most browser tests (run_integration_and_browser),
# then the browser tests that measure against the clock. (The typecheck beside the other four
# of the first five took as long as all five in a row: tsgo already spreads over both cores.)
DEFAULT_PARTS=(lint typecheck build unit test-database server e2e)
FIRST_PARTS=(lint typecheck build unit test-database)

# The browser tests come in two parts when they run with the integration suite. The files below
# measure against the clock (a moderator's action reaching a viewer within a second, a flash deal
# on the same frame for two viewers, catching up to live, a comment window of 10 s, a live query's
# notice to a shopper whose order was locked) or play a live stream throughout: part `e2e-alone`
# runs them after the integration suite, one at a time with nothing beside them. Beside it, on two busy cores,
# they failed in turn although the product kept its times (clean-clone runs at load 9: a hide
# measured 1,355 ms, a flash deal's frame stamp 9.5 s late, a sign-in pop-up missing its 30 s).
# Two misses first blamed on load were not: a locked order's notice (a race in the checkout page,
# fixed) and "back to live" (the test took a jump to the live edge for playback, fixed); their
# files stay here until a clean run beside the integration suite shows them passing there. The
# rest (`e2e-beside`) may run beside the integration suite (VITRINE_TEST_BESIDE=1), which only
# slows them. The `e2e` part is all of them.
E2E_ALONE_FILES=(
  checkout.e2e.ts
  control-room.e2e.ts
  demo-live-show.e2e.ts
  flash-deals.e2e.ts
  interaction.e2e.ts
  live-catch-up.e2e.ts
  live-competitions.e2e.ts
  live-player.e2e.ts
  ll-hls.e2e.ts
  moderation.e2e.ts
  player.e2e.ts
  show-lifecycle.e2e.ts
  social-sign-in.e2e.ts
  studio-go-live.e2e.ts
  studio-live-warnings.e2e.ts
  studio-restream.e2e.ts
  watch-heartbeat.e2e.ts
)
# How many integration test files run at once. Alone, with two workers, the server part left the
# two cores 42% idle: its files wait on encoders, live streams and timers. Four workers filled
# them (89% busy) and took the part from 306 to 215 s, the PostgreSQL run from 131 to 88 s, with
# about the same CPU work (351 busy core-seconds with two, 370 with four; a quiet two-core
# machine, 30 November 2026), and passed with two CPU burners beside it. Beside the browser tests
# (VITRINE_TEST_BESIDE=1) the cores are already full: two there (vitest.config.ts, maxWorkers).
integration_workers() {
  if browser_tests_beside; then echo 2; else echo 4; fi
}

# Whether the browser tests run beside the integration suite (see run_integration_and_browser).
browser_tests_beside() { [ "${VITRINE_TEST_BESIDE:-0}" = 1 ]; }

run_named_part() {
  case "$1" in
    lint) run_part lint npm run --silent lint ;;
    typecheck) run_part typecheck npm run --silent typecheck ;;
    build) run_part build npm run --silent build ;;
    unit) run_vitest_part unit --project domain --project sdk --project web --project bench ;;
    # The migrated embedded database the server and browser tests start from, kept between runs:
    # made once here rather than by each of the parts that then start side by side.
    test-database) run_part test-database node --import tsx scripts/prepare-test-database.ts ;;
    # The integration suite on the embedded database (PGlite), whatever DATABASE_URL says.
    server)
      (unset DATABASE_URL &&
        run_vitest_part server --project server --project server-isolated --maxWorkers="$(integration_workers)")
      ;;
    # The browser tests' servers keep embedded databases of their own, whatever DATABASE_URL says.
    e2e) (unset DATABASE_URL && run_vitest_part e2e --project e2e) ;;
    e2e-beside)
      local excluded=() file
      for file in "${E2E_ALONE_FILES[@]}"; do excluded+=(--exclude "**/$file"); done
      # Two files at a time, as e2e-alone: run alone on a quiet two-core machine, the part took
      # 435 s with one, 313 s with two (the cores 92% busy), 317 s with three (the session of 30
      # November 2026, night). Beside the integration suite (VITRINE_TEST_BESIDE=1), on an earlier
      # machine, two took 356–392 s instead of one's 481 s, but the cores were full either way, and
      # the whole CI did not get shorter for it (830 and 868 s against 834 s with one worker).
      (unset DATABASE_URL && VITRINE_E2E_WORKERS=2 run_vitest_part e2e-beside --project e2e "${excluded[@]}")
      ;;
    # By path (e2e/NAME), so that player.e2e.ts does not also pick live-player.e2e.ts.
    # One file at a time. Two at a time (their tests took 681 s in all, the part 428 s), each file's
    # browsers, encoder and server took the cores from the other's, and the part failed one timing
    # after another although the product kept it: a flash deal's frame (stop 44), a moderator's ban
    # reaching a viewer at 1,616 ms (1 December), a hide at 1,453 ms whose socket message itself
    # came at 1,385 ms (the server waiting for a core: 30% busy itself; 67-115 ms alone).
    e2e-alone) (unset DATABASE_URL && VITRINE_E2E_WORKERS=1 run_vitest_part e2e-alone --project e2e "${E2E_ALONE_FILES[@]/#/e2e/}") ;;
    # The integration suite again on a PostgreSQL server: each test file gets a database of its own,
    # a copy of one the run migrates (apps/server/src/test-support/postgres-template.ts).
    # The files whose subject is not the database (vitest.config.ts, ENGINE_INDEPENDENT_SERVER_TESTS)
    # ran in the part above and are left out here.
    server-postgres)
      VITRINE_TEST_ENGINE_RUN=1 \
        DATABASE_URL="${CI_DATABASE_URL:-${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}}" \
        run_vitest_part server-postgres --project server --project server-isolated \
        --maxWorkers="$(integration_workers)"
      ;;
    *)
      echo "unknown test part: $1 (parts: ${DEFAULT_PARTS[*]} server-postgres e2e-beside e2e-alone)" >&2
      return 2
      ;;
  esac
}

run_named_parts() {
  local part
  for part in "$@"; do run_named_part "$part" || return; done
}

# run_integration_and_browser PARTS…: the integration suite's PARTS (server, server-postgres), then
# e2e-beside, one after another; with VITRINE_TEST_BESIDE=1, e2e-beside in the background beside
# them instead (run_beside). Beside was the faster on an earlier two-core machine (a clean-clone CI
# of 830–883 s), but on the machine of 30 November 2026 evening the two together overloaded the
# cores (load 12, 37% of the CPU in the kernel; a first touch of memory costs ~12 µs a page there):
# the server part alone took 455–477 s, beside the browser tests it had done 63 of its 128 files
# after 26 minutes, and two premiere tests failed on a restart too slow. One after another, the
# server part took 455 s in the CI run and the browser tests' part 1,051 s.
run_integration_and_browser() {
  if browser_tests_beside; then
    run_beside e2e-beside -- "$@"
  else
    run_named_parts "$@" e2e-beside
  fi
}

# run_beside PART -- PARTS…: runs PART in the background while PARTS run one after another, then
# prints PART's output whole (it is kept in $TEST_RESULTS_DIR/PART.log). Both kinds of test wait
# on conditions with generous bounds, never on fixed times, so the extra load makes them slower,
# not red (but see run_integration_and_browser).
run_beside() {
  local background="$1"
  shift
  [ "${1:-}" = "--" ] && shift
  local log="$TEST_RESULTS_DIR/$background.log"
  (run_named_part "$background") >"$log" 2>&1 &
  local background_pid=$!
  printf '\n=== part %s: running beside %s (its output follows when it ends: %s)\n' "$background" "$*" "$log"
  run_named_parts "$@"
  wait "$background_pid"
  cat "$log"
}

# Prints each part's summary line and the total (`N passed, N failed` alone on the last line);
# returns non-zero if any part failed or no test ran.
finish_parts() {
  node scripts/test-summary.mjs "$PARTS_FILE"
}
