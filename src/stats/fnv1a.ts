/**
 * The 32-bit FNV-1a hash of a string's UTF-16 code units, as an unsigned integer: a fast,
 * well-spread hash for ids and stable pseudo-random choices, not a secret (the same text, the same
 * hash, on any machine).
 *
 * @example
 * fnv1a("");  // 2166136261 (0x811c9dc5, the offset basis)
 * fnv1a("a"); // 3826002220 (0xe40c292c)
 */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
