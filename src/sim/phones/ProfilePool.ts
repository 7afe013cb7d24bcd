import { phoneProfiles, type PhoneProfile } from "./PhoneProfile.ts";
import { realPhoneCaptures } from "./realPhoneCaptures.ts";
import type { Rng } from "../random/prng.ts";

/** Every capture's profile, derived once (the table is frozen). */
const ALL: readonly PhoneProfile[] = phoneProfiles(realPhoneCaptures);

/**
 * The capture profiles a world's phones replay (`RealPhones.profiles`), and how a phone draws
 * one: **a phone, then one of its modes** — each of the phones selected is as likely, and its
 * selected captures share its chance equally, so a phone captured in six modes is not six times
 * as common as one captured in three. Draws are split by whether the capture used a universal
 * MAC, so a world can set that share (`RealPhones.universalShare`) and keep everything else as
 * the captures have it.
 *
 * @example
 * const pool = new ProfilePool("all");
 * [pool.profiles.length, pool.devices.length]; // [107, 22]
 * new ProfilePool(["B", "C-A"]).profiles.map((p) => p.id).join(" "); // "B-WS B-WA B-S B-A B-PS B-PA C-A"
 * pool.draw(createRng(1), true).universal; // true
 * new ProfilePool(["C"]).has(false); // false: phone C always used its universal MAC
 */
export class ProfilePool {
  /** The selected profiles, in the captures' order. */
  readonly profiles: readonly PhoneProfile[];
  /** The selected phones' labels, in the captures' order. */
  readonly devices: readonly string[];
  /** The chance that a phone drawn a phone then a mode at a time replays a universal-MAC capture (0…1). */
  readonly universalShare: number;
  private readonly weight: ReadonlyMap<PhoneProfile, number>;
  /** The profiles of each class drawn from (`universal`, `randomized`, `device:B`…), with their weights' total. */
  private readonly classes = new Map<string, { readonly profiles: readonly PhoneProfile[]; readonly total: number }>();

  /**
   * `selectors`: `"all"`, or phone labels (`"B"`: every capture of B) and capture ids (`"B-A"`).
   * Throws RangeError for a selector that names no capture, and for an empty selection.
   */
  constructor(selectors: "all" | readonly string[]) {
    let chosen: readonly PhoneProfile[];
    if (selectors === "all") chosen = ALL;
    else {
      for (const s of selectors) {
        if (!ALL.some((p) => p.id === s || p.device === s)) throw new RangeError(`phones.profiles: no capture is ${JSON.stringify(s)} (a phone label A–X, or an id such as "B-A"; see realPhoneCaptures)`);
      }
      chosen = ALL.filter((p) => selectors.includes(p.id) || selectors.includes(p.device));
    }
    if (chosen.length === 0) throw new RangeError("phones.profiles selects no capture");
    this.profiles = chosen;
    this.devices = [...new Set(chosen.map((p) => p.device))];
    const modes = new Map<string, number>();
    for (const p of chosen) modes.set(p.device, (modes.get(p.device) ?? 0) + 1);
    this.weight = new Map(chosen.map((p) => [p, 1 / (this.devices.length * modes.get(p.device)!)]));
    this.universalShare = chosen.reduce((a, p) => a + (p.universal ? this.weight.get(p)! : 0), 0);
  }

  /**
   * One profile of the class asked for (`universal` or randomized), by the pool's weights: one
   * draw of `rng`. Throws RangeError when the selection has none of that class.
   */
  draw(rng: Rng, universal: boolean): PhoneProfile {
    return this.pick(rng, universal ? "universal" : "randomized", (p) => p.universal === universal, universal ? "universal-MAC" : "randomized-MAC");
  }

  /** Whether the selection holds a capture of that class (`universal` or randomized). */
  has(universal: boolean): boolean {
    return this.profiles.some((p) => p.universal === universal);
  }

  /** One of phone `device`'s selected captures, each alike: one draw of `rng` (a phone in a mode, for a visit). */
  drawOf(rng: Rng, device: string): PhoneProfile {
    return this.pick(rng, `device:${device}`, (p) => p.device === device, `phone ${device}'s`);
  }

  private pick(rng: Rng, key: string, keep: (p: PhoneProfile) => boolean, what: string): PhoneProfile {
    let klass = this.classes.get(key);
    if (klass === undefined) {
      const profiles = this.profiles.filter(keep);
      this.classes.set(key, (klass = { profiles, total: profiles.reduce((a, p) => a + this.weight.get(p)!, 0) }));
    }
    const candidates = klass.profiles;
    if (candidates.length === 0) throw new RangeError(`phones.profiles holds no ${what} capture`);
    let u = rng.next() * klass.total;
    for (const p of candidates) {
      u -= this.weight.get(p)!;
      if (u < 0) return p;
    }
    return candidates[candidates.length - 1]!;
  }
}
