/**
 * The unknown-key rule for options objects: throws a TypeError naming the first key of `object`
 * that is not in `known`, and listing the known ones. A misspelt option (`shadowingDB`,
 * `maxRetries`) would otherwise be ignored without a word, and its default used.
 *
 * @example
 * rejectUnknownKeys({ retries: 3 }, new Set(["retries", "minTimeout"]), "retry option"); // undefined (all known)
 * rejectUnknownKeys({ retry: 3 }, new Set(["retries"]), "retry option"); // TypeError: Unknown retry option key `retry` (known: retries).
 */
export function rejectUnknownKeys(object: object, known: ReadonlySet<string>, what: string): void {
  for (const key of Object.keys(object)) {
    if (!known.has(key)) throw new TypeError(`Unknown ${what} key \`${key}\` (known: ${[...known].join(", ")}).`);
  }
}
