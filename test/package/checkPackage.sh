#!/usr/bin/env bash
# npm run check:package — the published artefact, not src/, works as a user gets it:
#   1. `npm pack` (which runs `prepare`, the build) into a temporary folder;
#   2. a scratch project outside the repository installs the tarball from there (its
#      dependencies from the registry, as a user's `npm install footfall` would);
#   3. test/package/consumer/pipeline.mjs runs there under Node, then under Deno: it imports
#      `footfall`, `footfall/operators`, `footfall/sim` and `footfall/report` by name, serves the
#      simulator on port 0, pulls one shop-hour through the client and source, runs it through
#      the operators and `analyze`, and fails unless visitors > 0;
#   4. test/package/consumer/types.ts type-checks against the packed declarations, with tsc
#      (NodeNext, strict, no DOM lib, library checks on) and with `deno check`;
#   5. an internal module (dist/client/maskEmail.js) must not be importable: `exports` hides it.
# Any failing step exits non-zero with a line saying which one.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
# The notebooks pin Deno; one version for both checks.
DENO_VERSION="$(sed -n 's/^DENO_VERSION=//p' notebooks/run.sh)"
export PATH="$ROOT/node_modules/.bin:$PATH" DENO_NO_UPDATE_CHECK=1 DENO_NO_PROMPT=1 NO_COLOR=1

work="$(mktemp -d "${TMPDIR:-/tmp}/footfall-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT
step() { echo "check:package: $*" >&2; }
fail() { echo "check:package: FAIL $*" >&2; exit 1; }
started=$SECONDS

step "npm pack (builds dist/)"
mkdir "$work/pack"
npm pack --silent --pack-destination "$work/pack" >"$work/pack.out" || fail "npm pack"
tarball="$work/pack/$(tail -n1 "$work/pack.out")"
[ -f "$tarball" ] || fail "npm pack wrote no tarball ($(cat "$work/pack.out"))"

step "install $(basename "$tarball") into a scratch project ($work/app)"
mkdir "$work/app"
cp test/package/consumer/pipeline.mjs test/package/consumer/types.ts "$work/app/"
printf '{ "name": "footfall-package-check", "private": true, "type": "module" }\n' >"$work/app/package.json"
(cd "$work/app" && npm install --no-audit --no-fund --loglevel=error "$tarball" >&2) || fail "npm install of the tarball"

step "node $(node --version): pipeline.mjs"
(cd "$work/app" && node pipeline.mjs) || fail "the pipeline under Node"

step "tsc $(node node_modules/typescript/bin/tsc --version | cut -d' ' -f2): types.ts against the packed declarations"
# A Node user's strict setup: NodeNext resolution through `exports`, Node's types but not the
# DOM's; skipLibCheck as nearly every project has it (Plot's own .d.ts need the DOM lib).
(cd "$work/app" && node "$ROOT/node_modules/typescript/bin/tsc" --noEmit --strict --exactOptionalPropertyTypes \
  --module nodenext --moduleResolution nodenext --target es2022 --lib es2023 \
  --skipLibCheck --types node --typeRoots "$ROOT/node_modules/@types" types.ts) || fail "tsc on the packed declarations"

step "node: internals are not exported"
if (cd "$work/app" && node --input-type=module -e 'await import("footfall/dist/client/maskEmail.js")' 2>/dev/null); then
  fail "footfall/dist/client/maskEmail.js is importable; package.json exports should hide it"
fi

if [ "$(deno --version 2>/dev/null | head -n1 | cut -d' ' -f2)" != "$DENO_VERSION" ]; then
  step "installing deno@$DENO_VERSION (not saved to package.json or the lock file)"
  npm install --no-save --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION" >&2 || fail "installing Deno"
fi
step "$(deno --version | head -n1): pipeline.mjs"
# The scratch project's package.json and node_modules are what Deno resolves `footfall` from.
(cd "$work/app" && deno run -A --node-modules-dir=manual pipeline.mjs) || fail "the pipeline under Deno"
(cd "$work/app" && deno check --quiet --node-modules-dir=manual types.ts) || fail "deno check on the packed declarations"

step "ok in $((SECONDS - started)) s"
