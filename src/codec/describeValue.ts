/**
 * A short, never-throwing description of any value for an error message: strings and
 * numbers as JSON, other values by type. (`String(x)` throws for a null-prototype object,
 * `JSON.stringify` for a BigInt, so neither is safe on arbitrary input.) Internal.
 *
 * @example
 * describeValue("h");                 // "\"h\""
 * describeValue(1.5);                 // "1.5"
 * describeValue(Object.create(null)); // "object"
 */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}
