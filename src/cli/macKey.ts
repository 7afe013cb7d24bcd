import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { rawDevice, type DeviceId } from "../analysis/AnalysisRecord.ts";
import { MIN_KEY_BYTES, Pseudonymizer, type PseudonymRotation } from "../privacy/Pseudonymizer.ts";
import { UsageError, type CliIo } from "./common.ts";

/**
 * The privacy flags of every command that writes devices (analyze, demo), for `parseFlags`.
 *
 * @example
 * const { values } = parseFlags(["--raw-macs"], { ...privacyFlags, shop: { type: "string" } });
 * values["raw-macs"]; // true
 */
export const privacyFlags = {
  "mac-key-file": { type: "string" },
  "pseudonym-rotation": { type: "string" },
  "raw-macs": { type: "boolean" },
} as const;

/**
 * The `--help` paragraph of {@link privacyFlags}.
 *
 * @example
 * const help = `usage: footfall analyze …\n\n${privacyHelp}`;
 */
export const privacyHelp = `Privacy (devices are written as keyed pseudonyms, never as MACs):
  --mac-key-file PATH        the pseudonym key: a file readable by its owner only (chmod 600)
                             holding at least 16 bytes as hex or base64 [FOOTFALL_MAC_KEY, else
                             mac.key in $FOOTFALL_CONFIG_DIR, $XDG_CONFIG_HOME/footfall or
                             ~/.config/footfall, generated (mode 0600) on first use]
  --pseudonym-rotation R     none: one key, devices link across days (new/repeat visitors);
                             daily: a key per local day, no linking across days [none]
  --raw-macs                 write MAC addresses instead (debugging only: personal data)`;

/** The privacy settings read from {@link privacyFlags}. */
export type PrivacyFlagValues = {
  readonly "mac-key-file"?: string | undefined;
  readonly "pseudonym-rotation"?: string | undefined;
  readonly "raw-macs"?: boolean | undefined;
};

/**
 * How the command writes devices: the MAC with `--raw-macs`, else a keyed pseudonym from the key
 * (`--mac-key-file`, `FOOTFALL_MAC_KEY`, or the generated key file, announced once on stderr).
 * Returns a fresh {@link Pseudonymizer}'s function: one per output, so each device is hashed once.
 * Throws {@link UsageError} (exit 2) for a bad key, a key file others can read, or an unreadable
 * one; the key itself is never part of a message.
 *
 * @example
 * const withKey = { ...io, env: { FOOTFALL_MAC_KEY: "00112233445566778899aabbccddeeff" } };
 * const device = deviceIdFromFlags({ "pseudonym-rotation": "daily" }, withKey, "analyze");
 * device("a4:5e:60:00:00:01", "2026-11-16") === device("a4:5e:60:00:00:01", "2026-11-17"); // false
 */
export function deviceIdFromFlags(values: PrivacyFlagValues, io: CliIo, command: string): DeviceId {
  return deviceIdOf(pseudonymizerFromFlags(values, io, command));
}

/**
 * The {@link Pseudonymizer} of {@link deviceIdFromFlags}, or `undefined` with `--raw-macs`: for a
 * command that also lets decode threads hash devices (`readInputInThreads`). Same checks.
 *
 * @example
 * const withKey = { ...io, env: { FOOTFALL_MAC_KEY: "00112233445566778899aabbccddeeff" } };
 * pseudonymizerFromFlags({}, withKey, "analyze")?.rotation; // "none"
 * pseudonymizerFromFlags({ "raw-macs": true }, withKey, "analyze"); // undefined
 */
export function pseudonymizerFromFlags(values: PrivacyFlagValues, io: CliIo, command: string): Pseudonymizer | undefined {
  const rotation = values["pseudonym-rotation"] ?? "none";
  if (rotation !== "none" && rotation !== "daily") throw new UsageError(`--pseudonym-rotation must be none or daily, got ${JSON.stringify(rotation)}`);
  if (values["raw-macs"] === true) {
    if (values["mac-key-file"] !== undefined || values["pseudonym-rotation"] !== undefined) {
      throw new UsageError("--raw-macs writes MACs: it takes no --mac-key-file or --pseudonym-rotation");
    }
    return undefined;
  }
  const key = readMacKey(values["mac-key-file"], io, command);
  return new Pseudonymizer({ key, rotation: rotation as PseudonymRotation });
}

/**
 * How a writer names devices with `p`: its pseudonym per device (and local date, for daily
 * rotation); the MAC without one (`--raw-macs`).
 *
 * @example
 * const device = deviceIdOf(new Pseudonymizer({ key: new Uint8Array(16).fill(1) }));
 * device("a4:5e:60:00:00:01", "2026-11-16").length; // 32
 * deviceIdOf(undefined)("a4:5e:60:00:00:01", "2026-11-16"); // "a4:5e:60:00:00:01"
 */
export function deviceIdOf(p: Pseudonymizer | undefined): DeviceId {
  return p === undefined ? rawDevice : (mac, date) => p.pseudonym(mac, date);
}

/**
 * The pseudonym key's bytes: from `--mac-key-file PATH`, else `FOOTFALL_MAC_KEY`, else the key
 * file in the configuration directory (generated with mode 0600 when missing, and said so once on
 * stderr). Text keys are hex (even length) or base64 of at least 16 bytes.
 *
 * @example
 * const key = readMacKey(undefined, { ...io, env: { FOOTFALL_MAC_KEY: "00112233445566778899aabbccddeeff" } }, "analyze");
 * key.length; // 16
 */
export function readMacKey(file: string | undefined, io: CliIo, command: string): Uint8Array {
  if (file !== undefined) return readKeyFile(file, "--mac-key-file");
  const fromEnv = io.env["FOOTFALL_MAC_KEY"];
  if (fromEnv !== undefined && fromEnv !== "") {
    const key = parseKeyText(fromEnv);
    if (key === undefined) throw new UsageError(`FOOTFALL_MAC_KEY must be hex or base64 of at least ${MIN_KEY_BYTES} bytes (value not shown)`);
    return key;
  }
  const dir = configDir(io.env);
  const path = join(dir, "mac.key");
  try {
    return readKeyFile(path, "the key file");
  } catch (error) {
    if (!(error instanceof MissingKeyFile)) throw error;
  }
  const key = randomBytes(32);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // "wx": never overwrite a key another run just made (that would unlink its pseudonyms).
    writeFileSync(path, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(path, "the key file");
    throw new UsageError(`cannot create the pseudonym key file ${path}: ${(error as NodeJS.ErrnoException).code ?? "error"} (give --mac-key-file or FOOTFALL_MAC_KEY)`);
  }
  io.stderr.write(`footfall ${command}: generated a pseudonym key in ${path} (owner-only; keep it to link devices across runs)\n`);
  return key;
}

class MissingKeyFile extends Error {}

function configDir(env: Readonly<Record<string, string | undefined>>): string {
  const own = env["FOOTFALL_CONFIG_DIR"];
  if (own !== undefined && own !== "") return own;
  const xdg = env["XDG_CONFIG_HOME"];
  if (xdg !== undefined && xdg !== "") return join(xdg, "footfall");
  return join(env["HOME"] ?? homedir(), ".config", "footfall");
}

// Opened once and checked on the descriptor, so the mode checked is the file read.
function readKeyFile(path: string, what: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && what === "the key file") throw new MissingKeyFile();
    throw new UsageError(`${what}: cannot read ${path} (${code ?? "error"})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new UsageError(`${what}: ${path} is not a regular file`);
    if ((st.mode & 0o077) !== 0) {
      throw new UsageError(`${what}: ${path} is readable by others (mode ${(st.mode & 0o777).toString(8)}); run chmod 600 ${path}`);
    }
    let text: string;
    try {
      text = readFileSync(fd, "utf8");
    } catch (error) {
      throw new UsageError(`${what}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
    const key = parseKeyText(text);
    if (key === undefined) throw new UsageError(`${what}: ${path} must hold hex or base64 of at least ${MIN_KEY_BYTES} bytes (contents not shown)`);
    return key;
  } finally {
    closeSync(fd);
  }
}

function parseKeyText(text: string): Uint8Array | undefined {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(t)) key = Buffer.from(t, "hex");
  else if (/^[A-Za-z0-9+/]+={0,2}$/.test(t) && t.length % 4 === 0) key = Buffer.from(t, "base64");
  else if (/^[A-Za-z0-9_-]+$/.test(t)) key = Buffer.from(t, "base64url");
  return key !== undefined && key.length >= MIN_KEY_BYTES ? new Uint8Array(key) : undefined;
}
