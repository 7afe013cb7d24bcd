/**
 * A signal that aborts when any of `parents` does (with that parent's reason), plus a
 * `dispose` that detaches it from the parents. Written out rather than `AbortSignal.any`
 * so every listener on a long-lived client-level signal is removed when a call ends.
 *
 * @example
 * const link = linkSignals([clientSignal, callSignal]);
 * try { await work(link.signal); } finally { link.dispose(); }
 */
export function linkSignals(parents: readonly (AbortSignal | undefined)[]): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const attached: { parent: AbortSignal; onAbort: () => void }[] = [];
  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      controller.abort(parent.reason);
      break;
    }
    const onAbort = () => controller.abort(parent.reason);
    parent.addEventListener("abort", onAbort, { once: true });
    attached.push({ parent, onAbort });
  }
  return {
    signal: controller.signal,
    dispose() {
      for (const { parent, onAbort } of attached) parent.removeEventListener("abort", onAbort);
      attached.length = 0;
    },
  };
}
