"""Write a notebook's code cells, in order, to one TypeScript module.

Usage: extract_cells.py NOTEBOOK.ipynb OUT.ts

The Deno kernel runs cells without type-checking them, so the runner checks and
lints this module instead. Each cell is preceded by a `// cell N` comment so an
error's line leads back to its cell; a trailing `export {}` makes the file a
module, which is what the kernel's top-level `await` assumes.
"""

from __future__ import annotations

import sys

import nbformat


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, target = sys.argv[1], sys.argv[2]
    nb = nbformat.read(source, as_version=4)
    parts = [f"// Code cells of {source}, extracted for `deno check` and `deno lint`.\n"]
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.source.strip():
            parts.append(f"// cell {index + 1}\n{cell.source.rstrip()}\n")
    parts.append("export {};\n")
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
