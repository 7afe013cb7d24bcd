#!/usr/bin/env bash
# Self-test of notebooks/run.sh on tiny fixture notebooks: the runner must pass a good
# notebook (keeping its late outputs and SVG) and fail a cell error, a type error, a lint
# error, an unhandled promise rejection, an error thrown in a timer callback and a notebook
# that shows no chart — each for the right reason.
# Run by `npm run notebooks` before the real notebooks (needs Deno and nbclient, which
# run.sh installs), so CI proves the runner can fail; not part of the vitest run.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
FIX="$HERE/fixtures"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

passed=0
failed=0
# expect NAME EXIT_CODE PATTERN: run the runner on fixtures/NAME.ipynb, require the exit
# code and a line matching PATTERN in its combined output.
expect() {
  local name="$1" want="$2" pattern="$3" got
  bash "$ROOT/notebooks/run.sh" --no-install --no-self-test --out "$work/out" "$FIX/$name.ipynb" >"$work/$name.log" 2>&1
  got=$?
  if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$work/$name.log"; then
    passed=$((passed + 1))
    echo "  ok   $name: exit $got" >&2
  else
    failed=$((failed + 1))
    echo "  FAIL $name: exit $got (want $want, output matching /$pattern/):" >&2
    sed 's/^/       /' "$work/$name.log" >&2
  fi
}

echo "notebook runner self-test" >&2
expect passes 0 '^notebooks: 1 passed, 0 failed$'
expect cell-error 1 'FAIL cell-error.ipynb: cell 3 raised'
expect type-error 1 'FAIL type-error.ipynb: deno check'
expect lint-error 1 'FAIL lint-error.ipynb: deno lint'
expect rejection 1 'FAIL rejection.ipynb: .*unhandled promise rejection'
expect callback-throw 1 'FAIL callback-throw.ipynb: .*uncaught error in a callback'
expect no-chart 1 'FAIL no-chart.ipynb: 0 SVG outputs, expected at least 1'

# The good fixture's executed copy holds its stdout (also the line printed after a timer)
# and its SVG display.
if /usr/bin/python3 - "$work/out/passes.ipynb" <<'EOF'
import sys, nbformat
nb = nbformat.read(sys.argv[1], as_version=4)
outs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
text = "".join(o.get("text", "") for o in outs if o.output_type == "stream")
svg = [o for o in outs if "image/svg+xml" in o.get("data", {})]
assert "answer 42" in text and "after a timer" in text, text
assert svg and 'width="42"' in svg[0].data["image/svg+xml"], svg
EOF
then
  passed=$((passed + 1)); echo "  ok   passes: executed copy holds stdout and SVG" >&2
else
  failed=$((failed + 1)); echo "  FAIL passes: executed copy lacks its outputs" >&2
fi

echo "notebook runner self-test: $passed passed, $failed failed" >&2
((failed == 0))
