/**
 * When a sensor that uploads every `everyMs` at phase `phaseMs` next uploads at or after `t`
 * (all epoch ms): what it heard at `t` reaches the service then. The one upload rule of the
 * simulator's batching sensors — the live mode's (`uploadEveryMs`, records appear late) and the
 * world's (`sensorUploadEveryMs`, the RTS is the upload).
 *
 * @example
 * nextUpload(1_000, 500, 60_000); // 60_500
 * nextUpload(60_500, 500, 60_000); // 60_500 (an upload at that very ms takes it)
 */
export function nextUpload(t: number, phaseMs: number, everyMs: number): number {
  return phaseMs + Math.ceil((t - phaseMs) / everyMs) * everyMs;
}
