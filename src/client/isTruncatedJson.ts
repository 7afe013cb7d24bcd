/**
 * True when `text` looks like the start of a JSON object or array that was cut off:
 * it opens with `{` or `[` but ends inside a string or with brackets still open (or it
 * is empty). A body like that is a transport fault worth retrying; a body that is
 * complete but wrong (HTML, an unexpected shape) is a contract violation and is not.
 * A single pass, no allocation.
 *
 * @example
 * isTruncatedJson('{"brands":[{"id":1,"na'); // true
 * isTruncatedJson('<html>oops</html>');      // false
 * isTruncatedJson('{"brands":[]}');          // false
 */
export function isTruncatedJson(text: string): boolean {
  let i = 0;
  const n = text.length;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  if (i === n) return true;
  const first = text.charCodeAt(i);
  if (first !== 0x7b && first !== 0x5b) return false; // `{` or `[`
  let depth = 0;
  let inString = false;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString || depth > 0;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}
