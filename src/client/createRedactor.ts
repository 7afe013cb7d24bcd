import { maskEmail } from "./maskEmail.ts";

/**
 * Builds a function that removes the account's secrets from text the library did not
 * write itself (response bodies, platform error messages) before it goes into an error:
 * the token becomes `[redacted]`, the e-mail its masked form. Both are also caught in
 * their URL-encoded forms; the e-mail case-insensitively (servers may lower-case it).
 *
 * @example
 * const redact = createRedactor("s3cret-token", "alice@example.com");
 * redact("bad token s3cret-token for ALICE@example.com"); // "bad token [redacted] for a***@example.com"
 */
export function createRedactor(token: string, email: string): (text: string) => string {
  const masked = maskEmail(email);
  const tokens = unique([token, encodeURIComponent(token)]);
  const emailPattern = new RegExp(unique([email, encodeURIComponent(email)]).map(escapeRegExp).join("|"), "gi");
  return (text: string): string => {
    let out = text;
    for (const t of tokens) out = out.split(t).join("[redacted]");
    // A function replacer, so `$` in an address is not read as a substitution pattern.
    return out.replace(emailPattern, () => masked);
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
