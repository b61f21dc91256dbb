#!/usr/bin/env bash
# The production install as docs/operations.md describes it, tested: the built release (dist/,
# scripts/start.mjs, the package manifests and lock file) in a clean folder, `npm ci --omit=dev`
# (no build tools, no tsx), then `npm start` with NODE_ENV=production on a fresh PostgreSQL
# database, which must serve the shop; `npm run studio:link` must work there too, and a backup of
# it (`npm run backup`) restored into a second database (`npm run restore`), and `npm run doctor`
# must check the running release.
# Prints one line per check and closes with "production-install: N passed, N failed".
#
#   scripts/test-production-install.sh        (PRODUCTION_TEST_DATABASE_URL: the PostgreSQL server,
#                                              default postgres://postgres@127.0.0.1:5432)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SERVER_URL=${PRODUCTION_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432}
DATABASE="vitrine_production_install_$$"
WORK=$(mktemp -d)
PASSED=0
FAILED=0
SERVER_PID=

check() { # check NAME COMMAND…: runs the command, counts and prints the result
  local name=$1
  shift
  if "$@" >>"$WORK/checks.log" 2>&1; then
    PASSED=$((PASSED + 1))
    echo "  ok    $name"
  else
    FAILED=$((FAILED + 1))
    echo "  FAIL  $name (see below)"
    tail -n 20 "$WORK/checks.log" | sed 's/^/        /'
  fi
}

sql() { # sql STATEMENT: runs one statement on the PostgreSQL server with the installed pg driver
  (cd "$WORK/release" && node --input-type=module -e "
    import pg from 'pg';
    const client = new pg.Client({ connectionString: process.argv[1] + '/postgres' });
    await client.connect();
    try { await client.query(process.argv[2]); } finally { await client.end(); }
  " "$SERVER_URL" "$1")
}

finish() {
  if [ -n "$SERVER_PID" ]; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
  fi
  if [ -d "$WORK/release/node_modules/pg" ]; then
    sql "DROP DATABASE IF EXISTS $DATABASE" >/dev/null 2>&1
    sql "DROP DATABASE IF EXISTS ${DATABASE}_restored" >/dev/null 2>&1
  fi
  rm -rf "$WORK"
  echo "production-install: $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
}
trap 'finish; exit $?' EXIT

echo "production install: build, then npm ci --omit=dev in $WORK/release"
check "the release builds (npm run build, changed steps only)" node scripts/build.mjs --changed

# The release: what a self-hoster copies to the server (or unpacks from a tarball).
mkdir -p "$WORK/release/scripts"
cp -R dist "$WORK/release/dist"
cp package.json package-lock.json "$WORK/release/"
cp scripts/start.mjs "$WORK/release/scripts/"
# npm ci installs what the lock file names for every workspace, so their manifests come along.
for manifest in */package.json */*/package.json; do
  case $manifest in node_modules/* | dist/*) continue ;; esac
  mkdir -p "$WORK/release/$(dirname "$manifest")"
  cp "$manifest" "$WORK/release/$manifest"
done

install_release() {
  (cd "$WORK/release" && npm ci --omit=dev --no-audit --no-fund 2>&1 | tee "$WORK/npm-ci.log")
  ! grep -q EBADENGINE "$WORK/npm-ci.log"
}
check "npm ci --omit=dev installs with no engine warning" install_release
no_build_tools() {
  for tool in vite tsx esbuild typescript vitest; do
    if [ -e "$WORK/release/node_modules/$tool" ]; then
      echo "$tool is installed in production"
      return 1
    fi
  done
}
check "no build tool is installed (vite, tsx, esbuild, typescript, vitest)" no_build_tools
check "a fresh PostgreSQL database" sql "CREATE DATABASE $DATABASE"

PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
BASE="http://127.0.0.1:$PORT"
(
  cd "$WORK/release" &&
    exec setsid env NODE_ENV=production DATABASE_URL="$SERVER_URL/$DATABASE" PORT="$PORT" HOST=127.0.0.1 \
      VITRINE_SEED_DEMO=1 VITRINE_DEMO_LIVE=0 VITRINE_DEMO_RETAILER_PORT=-1 RTMP_PORT=off \
      VITRINE_DATA_DIR="$WORK/data" VITRINE_ADMIN_KEY=production-install-admin-key-0123456789 \
      VITRINE_PRINT_STUDIO_LINK=1 LOG_LEVEL=warn npm start
) >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

server_ready() { # until the server answers /readyz, or its process ended
  while kill -0 "$SERVER_PID" 2>/dev/null; do
    if curl -fsS "$BASE/readyz" 2>/dev/null | grep -q '"database":"postgres"'; then return 0; fi
    sleep 0.2
  done
  cat "$WORK/server.log"
  return 1
}
check "npm start serves with NODE_ENV=production on PostgreSQL (/readyz)" server_ready

storefront() {
  curl -fsS "$BASE/" -o "$WORK/index.html" &&
    grep -q 'window.__VITRINE__' "$WORK/index.html" &&
    curl -fsS "$BASE/widget/demo-store" -o /dev/null &&
    curl -fsS "$BASE/sdk.js" -o /dev/null &&
    curl -fsS "$BASE/demo-media/logo.svg" -o /dev/null
}
check "the storefront page, the SDK and the demo media answer 200" storefront

calls() {
  local session token
  session=$(curl -fsS -X POST -H 'content-type: application/json' -d '{}' "$BASE/functions/auth/signInAnonymously") &&
    token=$(node -e 'console.log(JSON.parse(process.argv[1]).idToken)' "$session") &&
    curl -fsS -X POST -H 'content-type: application/json' -H "authorization: Bearer $token" \
      -d '{"pageUid":"demo-store","campaignUid":"demo-autumn-living","productUid":"nordlys-ceramic-mug"}' \
      "$BASE/shopapiv2/cart/addSingle" | grep -q '"checkoutUid"'
}
check "calls answer (anonymous sign-in, add to cart)" calls

studio_link() {
  (cd "$WORK/release" && DATABASE_URL="$SERVER_URL/$DATABASE" VITRINE_PUBLIC_URL=https://shop.example \
    npm run --silent studio:link -- --email owner@nordlys.example) | tee /dev/stderr |
    grep -q 'https://shop.example/studio/link#'
}
check "npm run studio:link prints a one-time link for the demo owner" studio_link

# A backup of the running shop (pg_dump: PostgreSQL backs up while serving), restored into a
# second fresh database, holds the demo store and its owner (about 3 s).
backup_restore() {
  (cd "$WORK/release" && DATABASE_URL="$SERVER_URL/$DATABASE" VITRINE_DATA_DIR="$WORK/data" \
    npm run --silent backup -- --out "$WORK/backup") &&
    sql "CREATE DATABASE ${DATABASE}_restored" &&
    (cd "$WORK/release" && DATABASE_URL="$SERVER_URL/${DATABASE}_restored" VITRINE_DATA_DIR="$WORK/restored" \
      npm run --silent restore -- "$WORK/backup") &&
    (cd "$WORK/release" && DATABASE_URL="$SERVER_URL/${DATABASE}_restored" \
      npm run --silent studio:link -- --email owner@nordlys.example) | grep -q 'owner of Nordlys Living'
}
check "npm run backup, then npm run restore into a fresh database, holds the demo store" backup_restore

# The compiled doctor against the running release: what works passes, and it names what a real
# shop still lacks here (no payment provider in production without Stripe: a fail, exit status 1).
doctor() {
  local report
  report=$(cd "$WORK/release" && npm run --silent doctor -- "$BASE" \
    --admin-key production-install-admin-key-0123456789 --json)
  [ $? -eq 1 ] && node -e '
    const byCheck = Object.fromEntries(JSON.parse(process.argv[1]).findings.map((f) => [f.check, f]));
    const expected = { readyz: "ok", websocket: "ok", whip: "ok", "header:csp": "ok", tls: "warn", rtmp: "warn", payments: "fail" };
    const wrong = Object.entries(expected).filter(([check, status]) => byCheck[check]?.status !== status);
    if (wrong.length) { console.error(JSON.stringify(byCheck, null, 1)); process.exit(1); }
  ' "$report"
}
check "npm run doctor checks the running release (no payment provider: a fail)" doctor
