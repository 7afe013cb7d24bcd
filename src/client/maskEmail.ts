/**
 * Masks an e-mail address for error messages and `inspect` output: the first character
 * of the local part, `***`, then the domain. The e-mail is personal data; the domain is
 * kept because it is what tells a user which account they configured.
 *
 * @example
 * maskEmail("alice@example.com"); // "a***@example.com"
 * maskEmail("nobody");            // "n***"
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const local = at < 0 ? email : email.slice(0, at);
  const domain = at < 0 ? "" : email.slice(at);
  return `${local.slice(0, 1)}***${domain}`;
}
