// Durations the world builder schedules with, in epoch ms (a day is `MS_PER_DAY` of src/time).

/**
 * A minute, ms.
 *
 * @example
 * 15 * MS_MIN; // 900000
 */
export const MS_MIN = 60_000;

/**
 * An hour, ms.
 *
 * @example
 * MS_HOUR / MS_MIN; // 60
 */
export const MS_HOUR = 3_600_000;
