/**
 * One line of `footfall analyze --format ndjson` (and of `footfall fleet results`): a plain JSON
 * object whose `type` is `"session"`, `"summary"`, `"occupancy"` or `"quality"`.
 *
 * @example
 * const line: AnalysisRecord = { type: "summary", shopId: 101, date: "2026-11-16", visitors: 390 };
 */
export type AnalysisRecord = { readonly type: string } & Record<string, unknown>;

/**
 * How a device is identified in written lines: `(mac, localDate) => id`. Writers (the CLI, the
 * fleet's stored rows) pass a keyed pseudonym (`Pseudonymizer#pseudonym`) so no MAC leaves
 * footfall; `--raw-macs` passes {@link rawDevice}.
 *
 * @example
 * const p = new Pseudonymizer({ key: new Uint8Array(16).fill(1) });
 * const id: DeviceId = (mac, date) => p.pseudonym(mac, date);
 * id("a4:5e:60:00:00:01", "2026-11-16").length; // 32
 */
export type DeviceId = (mac: string, date: string) => string;

/**
 * The identity {@link DeviceId}: the MAC as the engine holds it (for the caller's own process,
 * or `--raw-macs` debugging output).
 *
 * @example
 * rawDevice("a4:5e:60:00:00:01", "2026-11-16"); // "a4:5e:60:00:00:01"
 */
export const rawDevice: DeviceId = (mac) => mac;
