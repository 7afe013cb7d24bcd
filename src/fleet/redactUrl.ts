/**
 * A connection URL fit for logs and errors: the password (and any `password=` query parameter)
 * replaced by `***`. Text that is not a URL is not echoed at all.
 *
 * @example
 * redactUrl("postgres://app:s3cret@db:5432/footfall"); // "postgres://app:***@db:5432/footfall"
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const key of [...parsed.searchParams.keys()]) {
    if (/pass|secret|token/i.test(key)) parsed.searchParams.set(key, "***");
  }
  return parsed.toString();
}

/**
 * Removes every occurrence of `secret` (a password) from `text`, for messages of errors that may
 * quote a URL or a connection string.
 *
 * @example
 * scrub("auth failed for s3cret", ["s3cret"]); // "auth failed for ***"
 */
export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s !== "") out = out.split(s).join("***");
  return out;
}

/**
 * The secrets of a connection URL (its password, raw and percent-decoded), for {@link scrub}.
 *
 * @example
 * urlSecrets("redis://:p%40ss@host:6379"); // ["p%40ss", "p@ss"]
 */
export function urlSecrets(url: string): string[] {
  try {
    const p = new URL(url).password;
    if (p === "") return [];
    let decoded = p;
    try {
      decoded = decodeURIComponent(p);
    } catch {
      // A malformed escape: the raw form is all there is.
    }
    return decoded === p ? [p] : [p, decoded];
  } catch {
    return [];
  }
}
