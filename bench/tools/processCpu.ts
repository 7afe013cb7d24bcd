/**
 * CPU time of other processes and of the whole machine, from Linux's /proc, for benches that
 * run servers and workers as separate processes: `process.cpuUsage()` sees only its own.
 * Resolution is the kernel's clock tick (10 ms at the usual 100 Hz), so use it over runs of
 * seconds, not single requests.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Kernel clock ticks per second (`getconf CLK_TCK`); 100 on every Linux this runs on. */
const TICKS_PER_S = 100;
const MS_PER_TICK = 1000 / TICKS_PER_S;

interface Stat {
  readonly ppid: number;
  /** stime alone: time in the kernel on the process's behalf (sockets, page faults), ms. */
  readonly systemMs: number;
  /** utime + stime of the process (all its threads), ms. */
  readonly selfMs: number;
  /** cutime + cstime: its children that exited and were waited for, ms. */
  readonly reapedMs: number;
}

function stat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined; // gone
  }
  // The command name is in parentheses and may contain spaces: fields start after the last ")".
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // After the name: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17), 1-based in proc(5).
  const n = (field: number): number => Number(f[field - 3]);
  return { ppid: n(4), systemMs: n(15) * MS_PER_TICK, selfMs: (n(14) + n(15)) * MS_PER_TICK, reapedMs: (n(16) + n(17)) * MS_PER_TICK };
}

/**
 * CPU time (user + system) a process has used, ms; with `tree`, also its live children and
 * those already reaped (PostgreSQL runs one backend process per connection). 0 if it is gone.
 *
 * @example
 * const before = processCpuMs(redisPid);
 * // … run …
 * const redisMs = processCpuMs(redisPid) - before;
 */
export function processCpuMs(pid: number, tree = false): number {
  const s = stat(pid);
  if (s === undefined) return 0;
  if (!tree) return s.selfMs;
  let ms = s.selfMs + s.reapedMs;
  for (const entry of readdirSync("/proc")) {
    const child = Number(entry);
    if (!Number.isInteger(child) || child === pid) continue;
    const c = stat(child);
    if (c !== undefined && c.ppid === pid) ms += c.selfMs + c.reapedMs;
  }
  return ms;
}

/**
 * The part of {@link processCpuMs} (not `tree`) spent in the kernel (system time), ms.
 *
 * @example
 * const kernelMs = processSystemMs(workerPid);
 */
export function processSystemMs(pid: number): number {
  return stat(pid)?.systemMs ?? 0;
}

/**
 * The machine's CPU time since boot, ms summed over all cores: `busy` (user, nice, system, irq,
 * softirq), `steal` (time the hypervisor gave this VM's cores to someone else) and `total`.
 * Differences over a run, minus the bench's own processes, give what everything else used.
 *
 * @example
 * const a = machineCpuMs();
 * // … run …
 * const b = machineCpuMs();
 * const othersMs = b.busy - a.busy - ourMs;
 */
export function machineCpuMs(): { readonly busy: number; readonly steal: number; readonly total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  const busy = user! + nice! + system! + irq! + softirq!;
  return { busy: busy * MS_PER_TICK, steal: steal! * MS_PER_TICK, total: (busy + idle! + iowait! + steal!) * MS_PER_TICK };
}

/**
 * Context switches of a process's main thread so far: `voluntary` (it waited: a socket, a
 * timer) and `involuntary` (the scheduler took the core away for something else to run).
 * Many involuntary switches per unit of work mean processes are taking turns on a core, each
 * turn costing cache refills that show up as extra CPU time.
 *
 * @example
 * const { involuntary } = contextSwitches(workerPid);
 */
export function contextSwitches(pid: number): { readonly voluntary: number; readonly involuntary: number } {
  let text = "";
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return { voluntary: 0, involuntary: 0 };
  }
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s*(\\d+)`, "m").exec(text)?.[1] ?? 0);
  return { voluntary: field("voluntary_ctxt_switches"), involuntary: field("nonvoluntary_ctxt_switches") };
}
