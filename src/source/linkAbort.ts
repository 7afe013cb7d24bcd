/**
 * A controller that aborts when `outer` does (with its reason), and a function that
 * detaches it again. Manual rather than `AbortSignal.any`, so a long-lived outer signal
 * does not keep every inner one alive.
 *
 * @example
 * const [controller, unlink] = linkAbort(options.signal);
 */
export function linkAbort(outer: AbortSignal | undefined): [AbortController, () => void] {
  const controller = new AbortController();
  if (outer === undefined) return [controller, () => undefined];
  if (outer.aborted) {
    controller.abort(outer.reason);
    return [controller, () => undefined];
  }
  const onAbort = (): void => controller.abort(outer.reason);
  outer.addEventListener("abort", onAbort, { once: true });
  return [controller, () => outer.removeEventListener("abort", onAbort)];
}
