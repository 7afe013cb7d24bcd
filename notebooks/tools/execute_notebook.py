"""Execute Deno/TypeScript notebooks with nbclient and fail loudly.

Usage: execute_notebook.py --out DIR NOTEBOOK.ipynb [...]

Writes each executed notebook to DIR/<name>.ipynb (also when it failed, so the
failure can be read) and exits 1 if any notebook failed. A notebook fails when:
- a cell reports an error (nbclient's CellExecutionError), the kernel dies or a
  cell times out;
- a promise rejects without a handler, or a callback (timer, listener) throws:
  the Deno kernel only logs or drops those, so a hidden prologue records them
  and a hidden check after every cell raises;
- a cell writes "Uncaught" to stderr, which is how the kernel reports errors it
  swallowed in callbacks;
- it shows fewer than --min-svg SVG outputs (notebooks exist to show pictures; a
  chart that silently stopped rendering is a failure).

Late outputs: the Deno kernel sometimes publishes a cell's output just after
reporting the cell idle, so after each cell the iopub channel is drained for
messages of that cell until it stays quiet for LATE_QUIET_S.

Needs nbclient (Debian: python3-nbclient) and a kernelspec named in the
notebook's metadata (here: `deno`, found through JUPYTER_PATH).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
import traceback
from queue import Empty

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionComplete, CellExecutionError, DeadKernelError, CellTimeoutError
from nbclient.util import ensure_async

# Quiet period that ends the wait for late outputs of a cell (seconds).
LATE_QUIET_S = 0.3
# Upper bound of that wait, so a chatty background timer cannot stall the run.
LATE_MAX_S = 2.0
# Per-cell execution limit (seconds); the simulated shop-days are small.
CELL_TIMEOUT_S = 300
# Grace for rejections that happen just after the last cell (seconds).
FINAL_GRACE_S = 0.5

# Records unhandled rejections, and errors thrown in callbacks (timers, listeners), which the
# kernel would otherwise forget or merely log.
PROLOGUE = """
globalThis.__nbRejections = [];
const __nbDescribe = (r) => (r instanceof Error ? (r.stack ?? String(r)) : String(r));
globalThis.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  globalThis.__nbRejections.push("unhandled promise rejection: " + __nbDescribe(event.reason));
});
globalThis.addEventListener("error", (event) => {
  event.preventDefault();
  globalThis.__nbRejections.push("uncaught error in a callback: " + __nbDescribe(event.error ?? event.message));
});
"""

CHECK = """
{
  const pending = globalThis.__nbRejections.splice(0);
  if (pending.length > 0) {
    throw new Error(pending.join("\\n"));
  }
}
"""


class NotebookFailure(Exception):
    """A notebook failed; the message says which cell and why."""


class StrictNotebookClient(NotebookClient):
    """NotebookClient that also waits for late outputs and checks rejections."""

    async def _async_poll_output_msg(self, parent_msg_id, cell, cell_index):  # noqa: ANN001
        await super()._async_poll_output_msg(parent_msg_id, cell, cell_index)
        await self._drain_late(parent_msg_id, cell, cell_index)

    async def _drain_late(self, parent_msg_id, cell, cell_index):  # noqa: ANN001
        assert self.kc is not None
        deadline = time.monotonic() + LATE_MAX_S
        while time.monotonic() < deadline:
            try:
                msg = await ensure_async(self.kc.iopub_channel.get_msg(timeout=LATE_QUIET_S))
            except Empty:
                return
            if msg["parent_header"].get("msg_id") != parent_msg_id:
                continue
            try:
                self.process_message(msg, cell, cell_index)
            except CellExecutionComplete:
                pass

    async def _run_hidden(self, code: str, what: str) -> None:
        """Run code that is not part of the notebook; raise NotebookFailure on error."""
        assert self.kc is not None
        msg_id = await ensure_async(self.kc.execute(code, store_history=False, silent=True))
        reply = await self.async_wait_for_reply(msg_id)
        if reply is None:
            raise NotebookFailure(f"{what}: no reply from the kernel")
        content = reply["content"]
        if content.get("status") == "error":
            raise NotebookFailure(f"{what}: {content.get('ename')}: {content.get('evalue')}")

    async def run_strict(self) -> None:
        """Execute every cell; raise NotebookFailure on the first failure."""
        self.reset_execution_trackers()
        async with self.async_setup_kernel():
            assert self.kc is not None
            info = await self.async_wait_for_reply(await ensure_async(self.kc.kernel_info()))
            if info is not None and "language_info" in info["content"]:
                self.nb.metadata["language_info"] = info["content"]["language_info"]
            await self._run_hidden(PROLOGUE, "runner prologue")
            for index, cell in enumerate(self.nb.cells):
                if cell.cell_type != "code":
                    continue
                label = f"cell {index + 1}"
                try:
                    await self.async_execute_cell(cell, index, execution_count=self.code_cells_executed + 1)
                except CellExecutionError as e:
                    raise NotebookFailure(f"{label} raised:\n{e}") from None
                except CellTimeoutError as e:
                    raise NotebookFailure(f"{label} timed out: {e}") from None
                except DeadKernelError as e:
                    raise NotebookFailure(f"{label}: the kernel died: {e}") from None
                for out in cell.outputs:
                    if out.get("output_type") == "stream" and out.get("name") == "stderr" and "Uncaught" in out.get("text", ""):
                        raise NotebookFailure(f"{label} reported an uncaught error:\n{out['text']}")
                await self._run_hidden(CHECK, f"{label} left an error behind")
            await asyncio.sleep(FINAL_GRACE_S)
            await self._run_hidden(CHECK, "after the last cell, an error was left behind")


def svg_outputs(nb) -> int:  # noqa: ANN001
    return sum(1 for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/svg+xml" in o.get("data", {}))


def execute(path: str, out_dir: str, min_svg: int) -> bool:
    name = os.path.basename(path)
    try:
        nb = nbformat.read(path, as_version=4)
    except Exception as e:  # unreadable or not a notebook: a failure, said in one line
        print(f"FAIL {name}: cannot read the notebook: {e}", file=sys.stderr)
        return False
    client = StrictNotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        startup_timeout=120,
        # Timestamps in cell metadata would make every re-run a diff of the committed notebooks.
        record_timing=False,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "deno"),
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}},
    )
    started = time.monotonic()
    ok = True
    try:
        asyncio.run(client.run_strict())
        if svg_outputs(nb) < min_svg:
            raise NotebookFailure(f"{svg_outputs(nb)} SVG outputs, expected at least {min_svg}")
    except NotebookFailure as e:
        ok = False
        print(f"FAIL {name}: {e}", file=sys.stderr)
    except Exception:  # the runner itself broke: still a failure, with the trace
        ok = False
        print(f"FAIL {name}: runner error", file=sys.stderr)
        traceback.print_exc()
    os.makedirs(out_dir, exist_ok=True)
    nbformat.write(nb, os.path.join(out_dir, name))
    if ok:
        print(f"ok   {name} ({time.monotonic() - started:.1f} s)", file=sys.stderr)
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for the executed copies")
    parser.add_argument("--min-svg", type=int, default=0, help="fail a notebook with fewer image/svg+xml outputs")
    parser.add_argument("notebooks", nargs="+")
    args = parser.parse_args()
    results = [execute(p, args.out, args.min_svg) for p in args.notebooks]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
