import type { OpenedSignalPages } from "./openSignalPages.ts";
import type { ResolvedSignalsOptions } from "./signalsOptions.ts";
import type { SignalCursor } from "./SignalCursor.ts";
import type { SignalPage, SignalProgress } from "./SignalPage.ts";

/**
 * Accumulates {@link SignalProgress} for one stream and reports it. Internal.
 *
 * @example
 * const progress = new ProgressTracker(resolveSignalsOptions(options), opened);
 * progress.page(page, page.records.length, page.cursor);
 */
export class ProgressTracker {
  private readonly o: ResolvedSignalsOptions;
  private readonly opened: OpenedSignalPages;
  private readonly fromMs: number;
  private readonly toMs: number | undefined;
  private pages = 0;
  private records = 0;
  private invalid = 0;

  constructor(o: ResolvedSignalsOptions, opened: OpenedSignalPages) {
    this.o = o;
    this.opened = opened;
    // Fraction of the whole requested range, so a resumed run continues where it stood.
    this.fromMs = o.codec.decode(o.sinceRts ?? opened.start.rts);
    this.toMs = o.untilRts === undefined ? undefined : o.codec.decode(o.untilRts);
  }

  /** Records one delivered page (`delivered` of its records) and calls `onProgress`. */
  page(page: SignalPage, delivered: number, cursor: SignalCursor): void {
    this.pages++;
    this.records += delivered;
    this.invalid += page.invalid;
    const onProgress = this.o.onProgress;
    if (onProgress === undefined) return;
    const done = page.done && delivered === page.records.length;
    const cursorTime = this.o.codec.decode(cursor.rts);
    let fraction: number | undefined;
    if (this.toMs !== undefined) {
      const span = this.toMs - this.fromMs;
      fraction = done ? 1 : span > 0 ? Math.min(1, Math.max(0, (cursorTime - this.fromMs) / span)) : 1;
    }
    onProgress({
      shopId: this.o.shopId,
      pages: this.pages,
      records: this.records,
      invalid: this.invalid,
      requests: this.opened.requests(),
      cursorTime,
      fraction,
      bufferedPages: this.opened.buffered(),
      done,
    });
  }
}
