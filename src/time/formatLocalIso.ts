import { dateOfEpochDay } from "./calendarDate.ts";

/**
 * ISO 8601 local date-time with an explicit offset, seconds precision, e.g.
 * `2026-11-16T12:34:56+09:00`, from epoch ms and the zone's offset then (minutes). Pure
 * arithmetic (no Date), for the simulator's loops over transactions.
 *
 * @example
 * formatLocalIso(1794800096000, 540); // "2026-11-16T12:34:56+09:00"
 */
export function formatLocalIso(ms: number, offsetMinutes: number): string {
  const local = Math.floor(ms / 1000) + offsetMinutes * 60;
  const day = Math.floor(local / 86_400);
  const sec = local - day * 86_400;
  const hh = Math.floor(sec / 3600);
  const mm = Math.floor((sec % 3600) / 60);
  const ss = sec % 60;
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  return `${dateOfEpochDay(day)}T${pad2(hh)}:${pad2(mm)}:${pad2(ss)}${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
