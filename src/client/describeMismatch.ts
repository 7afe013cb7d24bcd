/**
 * "expected X, got Y" for contract errors, with a value-free description of Y except
 * for numbers (string values may be personal data such as device MACs).
 *
 * @example
 * describeMismatch("an integer", "12"); // "expected an integer, got string"
 * describeMismatch("an integer", 1.5);  // "expected an integer, got number 1.5"
 */
export function describeMismatch(expected: string, got: unknown): string {
  const kind = got === null ? "null" : Array.isArray(got) ? "an array" : got === undefined ? "nothing" : typeof got;
  const detail = typeof got === "number" ? ` ${got}` : "";
  return `expected ${expected}, got ${kind}${detail}`;
}

/**
 * True for a non-null, non-array object (a JSON object after `JSON.parse`).
 *
 * @example
 * isObject({}); // true
 * isObject([]); // false
 */
export function isObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
