import { LocalCalendar, type WindowUnit } from "../../time/LocalCalendar.ts";
import { checkSink, type Kernel, type Sink } from "../sessions/Sink.ts";
import type { ClassifiedSession } from "./VisitClassifier.ts";

/**
 * One local time window of one shop, as the aggregating kernels see it.
 *
 * @example
 * const w: SessionWindow = { shopId: 101, window: "day", label: "2026-11-16", start: 1794754800000, end: 1794841200000 };
 */
export interface SessionWindow {
  readonly shopId: number;
  /** Window unit. */
  readonly window: WindowUnit;
  /** `YYYY-MM-DD` for a day; local `YYYY-MM-DDTHH:00±hh:mm` for an hour. */
  readonly label: string;
  /** Window start, epoch ms (inclusive). */
  readonly start: number;
  /** Window end, epoch ms (exclusive). */
  readonly end: number;
}

/**
 * What a windowed aggregation does with its sessions: build a fresh accumulator for a window, add
 * sessions to it, and turn it into a result when the window closes.
 *
 * @example
 * const count: WindowAggregate<{ n: number }, number> = { create: () => ({ n: 0 }), add: (a) => void a.n++, finish: (a) => a.n };
 */
export interface WindowAggregate<A, R> {
  /** A fresh accumulator for a window that opens. */
  create(window: SessionWindow): A;
  /** Adds one of the window's sessions to its accumulator. */
  add(acc: A, session: ClassifiedSession): void;
  /** The window's result, once it closes. */
  finish(acc: A, window: SessionWindow): R;
}

interface OpenWindow<A> {
  readonly window: SessionWindow;
  readonly acc: A;
}

interface ShopWindows<A> {
  /** Open windows, oldest first. */
  readonly open: OpenWindow<A>[];
  /** End of the last closed window: sessions starting before it are late. */
  closedUntil: number;
}

/**
 * Groups classified sessions by shop and local window of their start (hour or day, in the shop's
 * time zone) and closes each window in event time: when a session's `complete` reaches the window's
 * end (every session starting in it has been seen), or on {@link SessionWindows.flush}. Windows
 * close in order per shop; windows without sessions are not emitted. A session starting in a window
 * already closed (a `late` one) is not added; it goes to `sink.late` and the `late` counter.
 *
 * The shared engine of `VisitCounter` and `DwellMeter`: one implementation of windowing.
 *
 * @example
 * const out: number[] = [];
 * const w = new SessionWindows("day", "Asia/Seoul", { create: () => ({ n: 0 }), add: (a) => void a.n++, finish: (a) => a.n }, { emit: (n) => out.push(n) });
 * for (const s of classified) w.push(s);
 * w.flush();
 */
export class SessionWindows<A, R> implements Kernel<ClassifiedSession> {
  readonly #unit: WindowUnit;
  readonly #calendar: LocalCalendar;
  readonly #aggregate: WindowAggregate<A, R>;
  readonly #sink: Sink<R, ClassifiedSession>;
  readonly #shops = new Map<number, ShopWindows<A>>();
  #late = 0;

  constructor(
    unit: WindowUnit,
    timeZone: string,
    aggregate: WindowAggregate<A, R>,
    sink: Sink<R, ClassifiedSession>,
  ) {
    if (unit !== "hour" && unit !== "day") throw new RangeError(`window must be "hour" or "day", got ${String(unit)}`);
    this.#unit = unit;
    this.#calendar = new LocalCalendar(timeZone);
    this.#aggregate = aggregate;
    this.#sink = checkSink("SessionWindows", sink);
  }

  /** Sessions that arrived after their window closed. */
  get late(): number {
    return this.#late;
  }

  /** Adds one classified session, then closes the windows its `complete` passed. */
  push(session: ClassifiedSession): void {
    let shop = this.#shops.get(session.shopId);
    if (shop === undefined) {
      shop = { open: [], closedUntil: Number.NEGATIVE_INFINITY };
      this.#shops.set(session.shopId, shop);
    }
    if (session.start < shop.closedUntil) {
      this.#late++;
      this.#sink.late?.(session, shop.closedUntil);
    } else {
      const cal = this.#calendar;
      const start = cal.windowStart(session.start, this.#unit);
      const open = shop.open;
      let i = open.length - 1;
      while (i >= 0 && open[i]!.window.start > start) i--;
      let target: OpenWindow<A>;
      if (i >= 0 && open[i]!.window.start === start) target = open[i]!;
      else {
        const window: SessionWindow = {
          shopId: session.shopId,
          window: this.#unit,
          label: cal.windowLabel(start, this.#unit),
          start,
          end: cal.windowEnd(start, this.#unit),
        };
        target = { window, acc: this.#aggregate.create(window) };
        open.splice(i + 1, 0, target);
      }
      this.#aggregate.add(target.acc, session);
    }
    const open = shop.open;
    while (open.length > 0 && open[0]!.window.end <= session.complete) this.#close(shop, open.shift()!);
  }

  /** Closes every open window (call when the source completes). */
  flush(): void {
    for (const shop of this.#shops.values()) {
      while (shop.open.length > 0) this.#close(shop, shop.open.shift()!);
    }
  }

  #close(shop: ShopWindows<A>, w: OpenWindow<A>): void {
    if (w.window.end > shop.closedUntil) shop.closedUntil = w.window.end;
    this.#sink.emit(this.#aggregate.finish(w.acc, w.window));
  }
}
