// The byte reader's WebAssembly text, SIGNAL_RECORD_WAT: exported at the end, once the helpers it
// is built from are defined.
import { RECORD_LAYOUT as L, RECORD_OUT as O } from "./signalRecordLayout.ts";

const QUOTE = 34;
const COMMA = 44;
const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const COLON = 58;
const ZERO = 48;
const BACKSLASH = 92;
const CLOSE = 125;
const LOWER_E = 101;

/** `text`'s bytes (ASCII) as an unsigned little-endian integer. */
function le(text: string): bigint {
  let value = 0n;
  for (let i = text.length - 1; i >= 0; i--) value = (value << 8n) | BigInt(text.charCodeAt(i));
  return value;
}
const i64 = (text: string): string => `(i64.const ${BigInt.asIntN(64, le(text))}) ;; ${JSON.stringify(text)}\n`;
const i32 = (text: string): string => `(i32.const ${BigInt.asIntN(32, le(text))}) ;; ${JSON.stringify(text)}\n`;
const splat = (byte: number): string => `(v128.const i8x16 ${Array<number>(16).fill(byte).join(" ")})`;

/**
 * True (1) when the bytes at `$p` spell `text` and end at or before `$limit`: 8, 4, 2 or 1 bytes a
 * load. Every load is made (WebAssembly's `and` does not short-circuit), but the input's padding
 * keeps them inside the memory and the limit decides.
 */
function literalAt(p: string, text: string): string {
  const parts: string[] = [];
  for (let o = 0; o < text.length; ) {
    const rest = text.length - o;
    if (rest >= 8) {
      parts.push(`(i64.eq (i64.load offset=${o} (local.get ${p})) ${i64(text.slice(o, o + 8))})`);
      o += 8;
    } else if (rest >= 4) {
      parts.push(`(i32.eq (i32.load offset=${o} (local.get ${p})) ${i32(text.slice(o, o + 4))})`);
      o += 4;
    } else if (rest >= 2) {
      parts.push(`(i32.eq (i32.load16_u offset=${o} (local.get ${p})) ${i32(text.slice(o, o + 2))})`);
      o += 2;
    } else {
      parts.push(`(i32.eq (i32.load8_u offset=${o} (local.get ${p})) (i32.const ${text.charCodeAt(o)}))`);
      o += 1;
    }
  }
  const bytes = parts.reduce((a, b) => `(i32.and ${a} ${b})`);
  return `(i32.and (i32.le_u (i32.add (local.get ${p}) (i32.const ${text.length})) (local.get $limit)) ${bytes})`;
}

/** Returns −1 from the function unless `condition` holds. */
const check = (condition: string): string => `(if (i32.eqz ${condition}) (then (return (i32.const -1))))\n`;
/** Returns −1 from the function when `$p` is negative (a helper's "no"). */
const checkFound = (p = "$p"): string => `(if (i32.lt_s (local.get ${p}) (i32.const 0)) (then (return (i32.const -1))))\n`;

function module(): string {
  return `(module
(memory (export "memory") 1)

;; The closing quote of the string body from $i: its address, or -1 at an escape, a control
;; character or the limit. Bytes from 0x80 are plain (any UTF-8, valid or not, is what a JSON
;; string may hold). 16 bytes a step while 16 are there.
(func $stringEnd (param $i i32) (param $limit i32) (result i32)
  (local $m i32) (local $v v128) (local $b i32)
  (block $tail (loop $wide
    (br_if $tail (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $limit)))
    (local.set $v (v128.load (local.get $i)))
    (local.set $m (i8x16.bitmask (v128.or
      (v128.or (i8x16.eq (local.get $v) ${splat(QUOTE)}) (i8x16.eq (local.get $v) ${splat(BACKSLASH)}))
      (i8x16.lt_u (local.get $v) ${splat(0x20)}))))
    (if (local.get $m) (then
      (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $m))))
      (return (select (local.get $i) (i32.const -1) (i32.eq (i32.load8_u (local.get $i)) (i32.const ${QUOTE}))))))
    (local.set $i (i32.add (local.get $i) (i32.const 16)))
    (br $wide)))
  (loop $narrow
    (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
    (local.set $b (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $b) (i32.const ${QUOTE})) (then (return (local.get $i))))
    (if (i32.or (i32.lt_u (local.get $b) (i32.const 0x20)) (i32.eq (local.get $b) (i32.const ${BACKSLASH}))) (then (return (i32.const -1))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $narrow))
  (i32.const -1))

;; The address after the run of decimal digits from $i, below the limit.
(func $digitsEnd (param $i i32) (param $limit i32) (result i32)
  (local $m i32)
  (block $tail (loop $wide
    (br_if $tail (i32.gt_u (i32.add (local.get $i) (i32.const 16)) (local.get $limit)))
    (local.set $m (i8x16.bitmask (i8x16.gt_u (i8x16.sub (v128.load (local.get $i)) ${splat(ZERO)}) ${splat(9)})))
    (if (local.get $m) (then (return (i32.add (local.get $i) (i32.ctz (local.get $m))))))
    (local.set $i (i32.add (local.get $i) (i32.const 16)))
    (br $wide)))
  (loop $narrow
    (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (local.get $i))))
    (if (i32.gt_u (i32.sub (i32.load8_u (local.get $i)) (i32.const ${ZERO})) (i32.const 9)) (then (return (local.get $i))))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br $narrow))
  (local.get $i))

;; The address after the plain JSON value at $i (a string without escapes, a number in JSON's
;; grammar, true, false or null), or -1 for anything else (an object, an array, whitespace...).
(func $plainValueEnd (param $i i32) (param $limit i32) (result i32)
  (local $b i32) (local $w i32) (local $from i32)
  (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
  (local.set $b (i32.load8_u (local.get $i)))
  (if (i32.eq (local.get $b) (i32.const ${QUOTE})) (then
    (local.set $w (call $stringEnd (i32.add (local.get $i) (i32.const 1)) (local.get $limit)))
    (return (select (i32.add (local.get $w) (i32.const 1)) (i32.const -1) (i32.ge_s (local.get $w) (i32.const 0))))))
  (if (i32.le_u (i32.add (local.get $i) (i32.const 4)) (local.get $limit)) (then
    (local.set $w (i32.load (local.get $i)))
    (if (i32.or (i32.eq (local.get $w) ${i32("true")}) (i32.eq (local.get $w) ${i32("null")}))
      (then (return (i32.add (local.get $i) (i32.const 4)))))
    (if (i32.eq (local.get $w) ${i32("fals")}) (then
      (if (i32.lt_u (i32.add (local.get $i) (i32.const 4)) (local.get $limit)) (then
        (if (i32.eq (i32.load8_u offset=4 (local.get $i)) (i32.const ${LOWER_E})) (then (return (i32.add (local.get $i) (i32.const 5)))))))
      (return (i32.const -1))))))
  ;; -?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?
  (if (i32.eq (local.get $b) (i32.const ${MINUS})) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
  (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
  (local.set $b (i32.load8_u (local.get $i)))
  (if (i32.eq (local.get $b) (i32.const ${ZERO}))
    (then (local.set $i (i32.add (local.get $i) (i32.const 1))))
    (else (if (i32.le_u (i32.sub (local.get $b) (i32.const ${ZERO})) (i32.const 9))
      (then (local.set $i (call $digitsEnd (i32.add (local.get $i) (i32.const 1)) (local.get $limit))))
      (else (return (i32.const -1))))))
  (if (i32.lt_u (local.get $i) (local.get $limit)) (then
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const ${DOT})) (then
      (local.set $from (i32.add (local.get $i) (i32.const 1)))
      (local.set $i (call $digitsEnd (local.get $from) (local.get $limit)))
      (if (i32.eq (local.get $i) (local.get $from)) (then (return (i32.const -1))))))))
  (if (i32.lt_u (local.get $i) (local.get $limit)) (then
    (if (i32.eq (i32.or (i32.load8_u (local.get $i)) (i32.const 0x20)) (i32.const ${LOWER_E})) (then
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (if (i32.lt_u (local.get $i) (local.get $limit)) (then
        (local.set $b (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $b) (i32.const ${PLUS})) (i32.eq (local.get $b) (i32.const ${MINUS})))
          (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
      (local.set $from (local.get $i))
      (local.set $i (call $digitsEnd (local.get $from) (local.get $limit)))
      (if (i32.eq (local.get $i) (local.get $from)) (then (return (i32.const -1))))))))
  (local.get $i))

;; 1 when the key bytes [$from, $to) spell one of the service's six keys (a further field must not
;; repeat one: JSON.parse keeps the last, so the record would not be of the usual shape).
(func $isServiceKey (param $from i32) (param $to i32) (result i32)
  (local $n i32)
  (local.set $n (i32.sub (local.get $to) (local.get $from)))
  (if (i32.eq (local.get $n) (i32.const 2)) (then (return (i32.eq (i32.load16_u (local.get $from)) ${i32("ts")}))))
  (if (i32.eq (local.get $n) (i32.const 4)) (then (return (i32.eq (i32.load (local.get $from)) ${i32("rssi")}))))
  (if (i32.eq (local.get $n) (i32.const 5)) (then (return (i32.and
    (i32.eq (i32.load (local.get $from)) ${i32("loca")})
    (i32.eq (i32.load8_u offset=4 (local.get $from)) (i32.const ${"l".charCodeAt(0)}))))))
  (if (i32.eq (local.get $n) (i32.const 7)) (then (return (i32.and
    (i32.eq (i32.load (local.get $from)) ${i32("row_")})
    (i32.eq (i32.load offset=3 (local.get $from)) ${i32("_key")})))))
  (if (i32.eq (local.get $n) (i32.const 9)) (then (return (i32.and
    (i64.eq (i64.load (local.get $from)) ${i64("device_i")})
    (i32.eq (i32.load8_u offset=8 (local.get $from)) (i32.const ${"d".charCodeAt(0)}))))))
  (if (i32.eq (local.get $n) (i32.const 10)) (then (return (i32.and
    (i64.eq (i64.load (local.get $from)) ${i64("square_m")})
    (i32.eq (i32.load16_u offset=8 (local.get $from)) ${i32("ac")})))))
  (i32.const 0))

;; Fields whose keys are learned (see $furtherFieldsEnd).
(global $learnedFields (mut i32) (i32.const 0))

;; The end of a record from the comma at $i: further fields ,"key":value (the key a plain string
;; that is none of the six, the value plain) then "}"; the address after the "}", or -1. The keys
;; of the last record read in full are learned, as 16-byte literals ,"key": of up to 12 ASCII
;; characters: the next record most likely has the same keys (an exporter writes one shape), and
;; one 16-byte compare passes a key the full check passed before. A literal is learned only from a
;; key that passed that check, so the rule is the same, one key at a time.
(func $furtherFieldsEnd (param $i i32) (param $limit i32) (result i32)
  (local $field i32) (local $entry i32) (local $length i32) (local $learning i32)
  (local $keyEnd i32) (local $fieldStart i32) (local $keyLength i32)
  ;; The fields whose keys are the last record's, as far as they are.
  (block $unlearned (loop $known
    (br_if $unlearned (i32.ge_u (local.get $field) (global.get $learnedFields)))
    (local.set $entry (i32.add (i32.const ${L.learned}) (i32.shl (local.get $field) (i32.const 5))))
    (local.set $length (i32.load offset=16 (local.get $entry)))
    (br_if $unlearned (i32.gt_u (i32.add (local.get $i) (local.get $length)) (local.get $limit)))
    ;; The first $length lanes equal.
    (br_if $unlearned (i32.ne
      (i32.and
        (i8x16.bitmask (i8x16.eq (v128.load (local.get $i)) (v128.load (local.get $entry))))
        (i32.sub (i32.shl (i32.const 1) (local.get $length)) (i32.const 1)))
      (i32.sub (i32.shl (i32.const 1) (local.get $length)) (i32.const 1))))
    (local.set $i (call $plainValueEnd (i32.add (local.get $i) (local.get $length)) (local.get $limit)))
    ${checkFound("$i")}
    (local.set $field (i32.add (local.get $field) (i32.const 1)))
    (br $known)))
  ;; The others, each checked in full, and learned for the next record.
  (local.set $learning (i32.const 1))
  (loop $other
    (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const ${CLOSE})) (then
      (if (local.get $learning) (then (global.set $learnedFields (local.get $field))))
      (return (i32.add (local.get $i) (i32.const 1)))))
    ;; ," opens a field, ": ends its key.
    ${check(`(i32.le_u (i32.add (local.get $i) (i32.const 2)) (local.get $limit))`)}
    ${check(`(i32.eq (i32.load16_u (local.get $i)) ${i32(',"')})`)}
    (local.set $keyEnd (call $stringEnd (i32.add (local.get $i) (i32.const 2)) (local.get $limit)))
    ${checkFound("$keyEnd")}
    ${check(`(i32.le_u (i32.add (local.get $keyEnd) (i32.const 2)) (local.get $limit))`)}
    ${check(`(i32.eq (i32.load16_u (local.get $keyEnd)) ${i32('":')})`)}
    ${check(`(i32.eqz (call $isServiceKey (i32.add (local.get $i) (i32.const 2)) (local.get $keyEnd)))`)}
    (local.set $fieldStart (local.get $i))
    (local.set $i (call $plainValueEnd (i32.add (local.get $keyEnd) (i32.const 2)) (local.get $limit)))
    ${checkFound("$i")}
    (if (local.get $learning) (then
      (local.set $keyLength (i32.sub (local.get $keyEnd) (i32.add (local.get $fieldStart) (i32.const 2))))
      (if (i32.and
            (i32.and (i32.le_u (local.get $keyLength) (i32.const 12)) (i32.lt_u (local.get $field) (i32.const ${L.maxLearnedFields})))
            ;; ASCII only: no lane of the key with its high bit set.
            (i32.eqz (i32.and
              (i8x16.bitmask (v128.load offset=2 (local.get $fieldStart)))
              (i32.sub (i32.shl (i32.const 1) (local.get $keyLength)) (i32.const 1)))))
        (then
          (local.set $entry (i32.add (i32.const ${L.learned}) (i32.shl (local.get $field) (i32.const 5))))
          (v128.store (local.get $entry) (v128.load (local.get $fieldStart)))
          (i32.store offset=16 (local.get $entry) (i32.add (local.get $keyLength) (i32.const 4)))
          (local.set $field (i32.add (local.get $field) (i32.const 1))))
        (else
          ;; The keys after one that cannot be a literal are not learned (nor is it).
          (global.set $learnedFields (local.get $field))
          (local.set $learning (i32.const 0))))))
    (br $other))
  (i32.const -1))

;; Set by $hex16: a bit a lane, set when the lane held a hex digit.
(global $hexLanes (mut i32) (i32.const 0))

;; The 16 hex digits (either case) in the lanes of $v as a 64-bit value, the first digit highest;
;; $hexLanes tells which lanes were digits.
(func $hex16 (param $v v128) (result i64)
  (local $digit v128) (local $letter v128) (local $isDigit v128) (local $nibbles v128) (local $pairs v128)
  (local.set $digit (i8x16.sub (local.get $v) ${splat(ZERO)}))
  (local.set $isDigit (i8x16.lt_u (local.get $digit) ${splat(10)}))
  ;; | 0x20 lowercases a letter; only A-F and a-f then land in a-f.
  (local.set $letter (i8x16.sub (v128.or (local.get $v) ${splat(0x20)}) ${splat("a".charCodeAt(0))}))
  (global.set $hexLanes (i8x16.bitmask (v128.or (local.get $isDigit) (i8x16.lt_u (local.get $letter) ${splat(6)}))))
  (local.set $nibbles (v128.bitselect (local.get $digit) (i8x16.add (local.get $letter) ${splat(10)}) (local.get $isDigit)))
  ;; Each 16-bit lane's two nibbles into one byte (the first high), then the bytes in order.
  (local.set $pairs (v128.or
    (v128.and (i16x8.shl (local.get $nibbles) (i32.const 4)) (v128.const i16x8 240 240 240 240 240 240 240 240))
    (i16x8.shr_u (local.get $nibbles) (i32.const 8))))
  (local.set $pairs (i8x16.narrow_i16x8_u (local.get $pairs) (local.get $pairs)))
  (i64x2.extract_lane 0 (i8x16.shuffle 7 6 5 4 3 2 1 0 8 9 10 11 12 13 14 15 (local.get $pairs) (local.get $pairs))))

;; The MAC whose text starts at $m and is closed by a quote, in any of the four layouts: its 48
;; bits as two 24-bit halves at $out and $out + 4; the address after the quote, or -1. The layout
;; is told by what stands at +2 (a separator only in the 17-character layouts) and at +4 (the
;; dotted one's first dot); each is then checked whole, closing quote included.
(func $mac (param $m i32) (param $limit i32) (param $out i32) (result i32)
  (local $separator i32) (local $v v128) (local $value i64) (local $end i32)
  ;; The shortest layout's closing quote.
  (if (i32.ge_u (i32.add (local.get $m) (i32.const 12)) (local.get $limit)) (then (return (i32.const -1))))
  (local.set $v (v128.load (local.get $m)))
  (local.set $separator (i32.load8_u offset=2 (local.get $m)))
  (block $read
    (if (i32.or (i32.eq (local.get $separator) (i32.const ${COLON})) (i32.eq (local.get $separator) (i32.const ${MINUS}))) (then
      ;; aa:bb:cc:dd:ee:ff or aa-bb-cc-dd-ee-ff: the separator at 2, 5, 8, 11 and 14, the last digit at 16.
      (local.set $end (i32.add (local.get $m) (i32.const 17)))
      ${check(`(i32.lt_u (local.get $end) (local.get $limit))`)}
      ${check(`(i32.eq (i32.load8_u (local.get $end)) (i32.const ${QUOTE}))`)}
      ${check(`(i32.eq (i32.and (i8x16.bitmask (i8x16.eq (local.get $v) (i8x16.splat (local.get $separator)))) (i32.const 0x4924)) (i32.const 0x4924))`)}
      (local.set $value (call $hex16 (i8x16.shuffle 0 1 3 4 6 7 9 10 12 13 15 16 16 16 16 16
        (local.get $v) (i8x16.splat (i32.load8_u offset=16 (local.get $m))))))
      (br $read)))
    (if (i32.eq (i32.load8_u offset=4 (local.get $m)) (i32.const ${DOT})) (then
      ;; aabb.ccdd.eeff
      (local.set $end (i32.add (local.get $m) (i32.const 14)))
      ${check(`(i32.lt_u (local.get $end) (local.get $limit))`)}
      ${check(`(i32.eq (i32.load8_u (local.get $end)) (i32.const ${QUOTE}))`)}
      ${check(`(i32.eq (i32.load8_u offset=9 (local.get $m)) (i32.const ${DOT}))`)}
      (local.set $value (call $hex16 (i8x16.shuffle 0 1 2 3 5 6 7 8 10 11 12 13 0 0 0 0 (local.get $v) (local.get $v))))
      (br $read)))
    ;; aabbccddeeff
    (local.set $end (i32.add (local.get $m) (i32.const 12)))
    ${check(`(i32.eq (i32.load8_u (local.get $end)) (i32.const ${QUOTE}))`)}
    (local.set $value (call $hex16 (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 0 0 0 0 (local.get $v) (local.get $v)))))
  ${check(`(i32.eq (global.get $hexLanes) (i32.const 0xffff))`)}
  ;; The MAC is the value's top 48 bits.
  (i32.store (local.get $out) (i32.wrap_i64 (i64.shr_u (local.get $value) (i64.const 40))))
  (i32.store offset=4 (local.get $out) (i32.and (i32.wrap_i64 (i64.shr_u (local.get $value) (i64.const 16))) (i32.const 0xffffff)))
  (i32.add (local.get $end) (i32.const 1)))

;; The JSON integer at $p (optional minus, no leading zero, no fraction or exponent) when it is
;; safe (|n| <= 2^53 - 1, so its double is exact, as JSON.parse reads it): stored as a double at
;; $out (-0 stays -0); the address after it, or -1.
(func $integer (param $p i32) (param $limit i32) (param $out i32) (result i32)
  (local $negative i32) (local $first i32) (local $value i64) (local $d i32)
  (if (i32.lt_u (local.get $p) (local.get $limit)) (then
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const ${MINUS})) (then
      (local.set $negative (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))))))
  (local.set $first (local.get $p))
  (block $done (loop $digits
    (br_if $done (i32.ge_u (local.get $p) (local.get $limit)))
    (local.set $d (i32.sub (i32.load8_u (local.get $p)) (i32.const ${ZERO})))
    (br_if $done (i32.gt_u (local.get $d) (i32.const 9)))
    ;; 17 digits without a leading zero are at least 10^16, above 2^53.
    (if (i32.ge_u (i32.sub (local.get $p) (local.get $first)) (i32.const 16)) (then (return (i32.const -1))))
    (local.set $value (i64.add (i64.mul (local.get $value) (i64.const 10)) (i64.extend_i32_u (local.get $d))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (br $digits)))
  (if (i32.eq (local.get $p) (local.get $first)) (then (return (i32.const -1))))
  (if (i64.gt_u (local.get $value) (i64.const 9007199254740991)) (then (return (i32.const -1))))
  (if (i32.and
        (i32.gt_u (i32.sub (local.get $p) (local.get $first)) (i32.const 1))
        (i32.eq (i32.load8_u (local.get $first)) (i32.const ${ZERO})))
    (then (return (i32.const -1))))
  (f64.store (local.get $out) (select
    (f64.neg (f64.convert_i64_u (local.get $value)))
    (f64.convert_i64_u (local.get $value))
    (local.get $negative)))
  (local.get $p))

;; One signal record of the usual shape from $start, no byte at or after $limit read as part of
;; it: its fields at ${L.out} (signalRecordLayout.ts), the address after its "}", or -1.
(func (export "record") (param $start i32) (param $limit i32) (result i32)
  (local $p i32) (local $shopId i64) (local $d i32) (local $digits i32) (local $c i32)
  (local.set $p (local.get $start))
  ${check(literalAt("$p", '{"row_key":"'))}
  (local.set $p (i32.add (local.get $p) (i32.const 12)))
  ;; The SHOP ID: 1 to 15 digits (leading zeros and all, as the row_key rule reads it), so exact.
  (local.set $digits (local.get $p))
  (block $done (loop $shop
    (br_if $done (i32.ge_u (local.get $p) (local.get $limit)))
    (local.set $d (i32.sub (i32.load8_u (local.get $p)) (i32.const ${ZERO})))
    (br_if $done (i32.gt_u (local.get $d) (i32.const 9)))
    (br_if $done (i32.ge_u (i32.sub (local.get $p) (local.get $digits)) (i32.const 15)))
    (local.set $shopId (i64.add (i64.mul (local.get $shopId) (i64.const 10)) (i64.extend_i32_u (local.get $d))))
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (br $shop)))
  ${check(`(i32.ne (local.get $p) (local.get $digits))`)}
  ${check(`(i32.lt_u (local.get $p) (local.get $limit))`)}
  ${check(`(i32.eq (i32.load8_u (local.get $p)) (i32.const ${COLON}))`)}
  (f64.store offset=${L.out + O.shopId} (i32.const 0) (f64.convert_i64_u (local.get $shopId)))
  ;; The RTS: 16 hex digits of either case (one rounding to a double, as rtsValueAt gives).
  (local.set $p (i32.add (local.get $p) (i32.const 1)))
  ${check(`(i32.le_u (i32.add (local.get $p) (i32.const 16)) (local.get $limit))`)}
  (i32.store offset=${L.out + O.rtsAt} (i32.const 0) (local.get $p))
  (f64.store offset=${L.out + O.rtsValue} (i32.const 0) (f64.convert_i64_u (call $hex16 (v128.load (local.get $p)))))
  ${check(`(i32.eq (global.get $hexLanes) (i32.const 0xffff))`)}
  (local.set $p (i32.add (local.get $p) (i32.const 16)))
  ${check(literalAt("$p", '","device_id":"'))}
  (local.set $p (call $mac (i32.add (local.get $p) (i32.const 15)) (local.get $limit) (i32.const ${L.out + O.deviceHigh})))
  ${checkFound()}
  ${check(literalAt("$p", ',"rssi":'))}
  (local.set $p (call $integer (i32.add (local.get $p) (i32.const 8)) (local.get $limit) (i32.const ${L.out + O.rssi})))
  ${checkFound()}
  ${check(literalAt("$p", ',"square_mac":"'))}
  (local.set $p (call $mac (i32.add (local.get $p) (i32.const 15)) (local.get $limit) (i32.const ${L.out + O.sensorHigh})))
  ${checkFound()}
  ${check(literalAt("$p", ',"ts":'))}
  (local.set $p (i32.add (local.get $p) (i32.const 6)))
  ;; A negative ts is the decoder's to reject (bad-ts), with the record it echoes.
  (if (i32.lt_u (local.get $p) (local.get $limit)) (then
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const ${MINUS})) (then (return (i32.const -1))))))
  (local.set $p (call $integer (local.get $p) (local.get $limit) (i32.const ${L.out + O.ts})))
  ${checkFound()}
  ${check(literalAt("$p", ',"local":'))}
  (local.set $p (i32.add (local.get $p) (i32.const 9)))
  (if ${literalAt("$p", "true")}
    (then
      (i32.store offset=${L.out + O.local} (i32.const 0) (i32.const 1))
      (local.set $p (i32.add (local.get $p) (i32.const 4))))
    (else
      ${check(literalAt("$p", "false"))}
      (i32.store offset=${L.out + O.local} (i32.const 0) (i32.const 0))
      (local.set $p (i32.add (local.get $p) (i32.const 5)))))
  ${check(`(i32.lt_u (local.get $p) (local.get $limit))`)}
  (local.set $c (i32.load8_u (local.get $p)))
  (if (i32.eq (local.get $c) (i32.const ${CLOSE})) (then (return (i32.add (local.get $p) (i32.const 1)))))
  ${check(`(i32.eq (local.get $c) (i32.const ${COMMA}))`)}
  (call $furtherFieldsEnd (local.get $p) (local.get $limit)))
)
`;
}

/**
 * The source, in WebAssembly's text format, of footfall's byte reader of signal records: the
 * module `SignalRecordReader` runs (`signalRecordWasm.ts` holds it compiled, and
 * `npm run build:wasm` compiles it again; a test checks the two agree). Built here from a few
 * helpers so that literals read as text rather than as little-endian constants. Never imported at
 * run time.
 *
 * Why WebAssembly: the rule is the one the JavaScript reader it replaced kept, but 128-bit SIMD
 * reads a MAC's or an RTS's hex digits, a learned key and 16 bytes of a string in one step, and
 * the whole record takes ~0.55× the CPU time (docs/performance.md, "The byte reader").
 *
 * What `record(start, limit)` accepts, byte by byte (it only recognises; the decoder decides):
 * `{"row_key":"<1–15 digits>:<16 hex digits>","device_id":"<MAC>","rssi":<int>,
 * "square_mac":"<MAC>","ts":<int ≥ 0>,"local":<true|false>` then further fields of the form
 * `,"key":value` — the key a plain string that is none of the six, the value a plain string (no
 * escape, no control character), a JSON number, `true`, `false` or `null` — and `}`. A MAC is
 * `aa:bb:cc:dd:ee:ff` or `aa-bb-cc-dd-ee-ff` (one separator throughout), `aabb.ccdd.eeff` or
 * `aabbccddeeff`, digits of either case; the integers are JSON integers (no leading zero) that
 * are safe (below 2^53), so their doubles are exact. It returns the address after the `}`, or −1.
 *
 * @example
 * SIGNAL_RECORD_WAT.startsWith("(module"); // true
 */
export const SIGNAL_RECORD_WAT = module();
