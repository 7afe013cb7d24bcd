#!/usr/bin/env bash
# Type-check, lint and execute the Deno/TypeScript notebooks; exit non-zero on any failure.
#
#   npm run notebooks                      self-test of this runner, then every notebooks/*.ipynb
#   bash notebooks/run.sh 02-proximity.ipynb   one notebook, by name or path (no self-test then)
#   bash notebooks/run.sh --no-install --out DIR X.ipynb
#   bash notebooks/run.sh --update         after a fully green run, copy the outputs back into the
#                                          committed notebooks (so they render on a repository page)
#
# Installs what is missing first: Deno from npm WITHOUT touching package-lock.json
# (npm ci fails when the lock file holds deno: the registry lacks its non-Linux
# optional packages), and Jupyter's nbclient from Debian (as root, or via sudo).
# The kernelspec is the committed notebooks/kernels/deno, found through
# JUPYTER_PATH, so nothing is installed into the home folder.
# Executed copies go to notebooks/.executed/ (ignored by git).
set -euo pipefail

DENO_VERSION=2.9.6
PYTHON=/usr/bin/python3 # Debian's python, the one python3-nbclient installs into
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NB_DIR="$ROOT/notebooks"
cd "$ROOT"

install=1
self_test=1
update=0
out="$NB_DIR/.executed"
notebooks=()
while (($#)); do
  case "$1" in
    --no-install) install=0 ;;
    --no-self-test) self_test=0 ;;
    --update) update=1 ;;
    --out) out="$(mkdir -p "$2" && cd "$2" && pwd)"; shift ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *)
      # A bare name means the notebook in notebooks/.
      nb="$1"
      [ -f "$nb" ] || [ ! -f "$NB_DIR/$nb" ] || nb="$NB_DIR/$nb"
      if [ ! -f "$nb" ]; then echo "run.sh: no notebook $1" >&2; exit 2; fi
      notebooks+=("$(cd "$(dirname "$nb")" && pwd)/$(basename "$nb")"); self_test=0 ;;
  esac
  shift
done
if ((${#notebooks[@]} == 0)); then
  shopt -s nullglob
  notebooks=("$NB_DIR"/*.ipynb)
  shopt -u nullglob
fi

export PATH="$ROOT/node_modules/.bin:$PATH"
export JUPYTER_PATH="$NB_DIR"
export JUPYTER_PLATFORM_DIRS=1
export DENO_NO_UPDATE_CHECK=1
export DENO_NO_PROMPT=1
export NO_COLOR=1
runtime_dir="$(mktemp -d)"
export JUPYTER_RUNTIME_DIR="$runtime_dir"
checked=()
cleanup() {
  rm -rf "$runtime_dir"
  for f in "${checked[@]}"; do rm -f "$f"; done
}
trap cleanup EXIT

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    echo "run.sh: need root to run: $*" >&2; return 1
  fi
}

if ((install)); then
  if [ "$(deno --version 2>/dev/null | head -n1 | cut -d' ' -f2)" != "$DENO_VERSION" ]; then
    echo "notebooks: installing deno@$DENO_VERSION (not saved to package.json or the lock file)" >&2
    npm install --no-save --no-audit --no-fund --loglevel=error "deno@$DENO_VERSION" >&2
  fi
  if ! "$PYTHON" -c "import nbclient" 2>/dev/null; then
    echo "notebooks: installing python3-nbclient from Debian" >&2
    as_root apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends python3-nbclient >&2
  fi
fi
deno --version | head -n1 >&2

if ((self_test)); then
  bash "$ROOT/test/notebooks/selftest.sh"
fi

# Static checks first: they are fast and the kernel itself neither type-checks nor lints.
# Each notebook's code cells become one module next to the notebook, so its relative imports
# (../src/index.ts) resolve as in the kernel.
failed=0
static_ok=()
ts_of() { local nb="$1" name; name="$(basename "$nb")"; echo "$(dirname "$nb")/.${name%.ipynb}.check.ts"; }
all_ts=()
for nb in "${notebooks[@]}"; do
  ts="$(ts_of "$nb")"
  checked+=("$ts")
  all_ts+=("$ts")
  "$PYTHON" "$NB_DIR/tools/extract_cells.py" "$nb" "$ts"
done
# One run over all modules shares the type-check of the library; only when it fails is each
# notebook checked on its own, to say which one failed.
together_ok=0
if ((${#all_ts[@]} > 1)) &&
  deno check --quiet --config "$NB_DIR/deno.json" "${all_ts[@]}" 2>/dev/null &&
  deno lint --quiet --config "$NB_DIR/deno.json" "${all_ts[@]}" >/dev/null 2>&1; then
  together_ok=1
fi
for nb in "${notebooks[@]}"; do
  name="$(basename "$nb")"
  ts="$(ts_of "$nb")"
  if ((!together_ok)); then
    if ! deno check --quiet --config "$NB_DIR/deno.json" "$ts" >&2; then
      echo "FAIL $name: deno check (type errors above; '// cell N' lines in the extracted code map to cells)" >&2
      failed=$((failed + 1)); continue
    fi
    if ! deno lint --quiet --config "$NB_DIR/deno.json" "$ts" >&2; then
      echo "FAIL $name: deno lint" >&2
      failed=$((failed + 1)); continue
    fi
  fi
  static_ok+=("$nb")
done

passed=0
for nb in "${static_ok[@]}"; do
  # Every notebook shows at least one chart; one that stopped drawing fails.
  if "$PYTHON" "$NB_DIR/tools/execute_notebook.py" --min-svg 1 --out "$out" "$nb"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done

echo "notebooks: $passed passed, $failed failed"
((failed == 0)) || exit 1
if ((update)); then
  for nb in "${notebooks[@]}"; do cp "$out/$(basename "$nb")" "$nb"; done
  echo "notebooks: outputs copied into ${#notebooks[@]} notebook(s)" >&2
fi
