/**
 * The WebAssembly text of HMAC-SHA-256 (FIPS 180-4, RFC 2104) over short messages, for
 * pseudonyms (`HmacSha256`): the key's inner and outer states are worked out once (`setKey`), so
 * a message of up to 55 bytes costs two compressions and no allocation. node:crypto's
 * `createHmac` takes ~1.5–3.5 µs a device, mostly in making its objects; a big shop-day has
 * ~47 000 devices. Compiled by `npm run build:wasm` into `hmacSha256Wasm.ts`.
 *
 * Memory (bytes): 0 the 64 round constants, 256 the initial hash value (both little-endian
 * words, from the data segments), 288 the key's inner state, 320 its outer state, 352 the state
 * being worked, 384 the message schedule (64 words), 640 the block (the message is written
 * here), 704 the key (64 bytes, zero-padded), 768 the digest in lowercase hex (64 bytes).
 *
 * @example
 * HMAC_SHA256_WAT.includes("(func $compress"); // true
 */
export const HMAC_SHA256_WAT = `(module
  (memory (export "memory") 1)
  (data (i32.const 0) "${words([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ])}")
  (data (i32.const 256) "${words([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])}")

  ;; A word read little-endian, as the big-endian word SHA-256 means (and back).
  (func $bswap (param $x i32) (result i32)
    (i32.or
      (i32.rotl (i32.and (local.get $x) (i32.const 0x00ff00ff)) (i32.const 24))
      (i32.rotl (i32.and (local.get $x) (i32.const 0xff00ff00)) (i32.const 8))))

  ;; 8 words from $from to $to.
  (func $copy (param $to i32) (param $from i32)
    (i64.store (local.get $to) (i64.load (local.get $from)))
    (i64.store offset=8 (local.get $to) (i64.load offset=8 (local.get $from)))
    (i64.store offset=16 (local.get $to) (i64.load offset=16 (local.get $from)))
    (i64.store offset=24 (local.get $to) (i64.load offset=24 (local.get $from))))

  ;; The state at $s after the block at 640.
  (func $compress (param $s i32)
    (local $t i32) (local $w15 i32) (local $w2 i32) (local $t1 i32) (local $t2 i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $e i32) (local $f i32) (local $g i32) (local $h i32)
    (loop $load
      (i32.store offset=384 (local.get $t) (call $bswap (i32.load offset=640 (local.get $t))))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br_if $load (i32.lt_u (local.get $t) (i32.const 64))))
    (loop $extend
      (local.set $w15 (i32.load offset=384 (i32.sub (local.get $t) (i32.const 60))))
      (local.set $w2 (i32.load offset=384 (i32.sub (local.get $t) (i32.const 8))))
      (i32.store offset=384 (local.get $t)
        (i32.add
          (i32.add
            (i32.load offset=384 (i32.sub (local.get $t) (i32.const 64)))
            (i32.xor (i32.xor (i32.rotr (local.get $w15) (i32.const 7)) (i32.rotr (local.get $w15) (i32.const 18))) (i32.shr_u (local.get $w15) (i32.const 3))))
          (i32.add
            (i32.load offset=384 (i32.sub (local.get $t) (i32.const 28)))
            (i32.xor (i32.xor (i32.rotr (local.get $w2) (i32.const 17)) (i32.rotr (local.get $w2) (i32.const 19))) (i32.shr_u (local.get $w2) (i32.const 10))))))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br_if $extend (i32.lt_u (local.get $t) (i32.const 256))))
    (local.set $a (i32.load (local.get $s)))
    (local.set $b (i32.load offset=4 (local.get $s)))
    (local.set $c (i32.load offset=8 (local.get $s)))
    (local.set $d (i32.load offset=12 (local.get $s)))
    (local.set $e (i32.load offset=16 (local.get $s)))
    (local.set $f (i32.load offset=20 (local.get $s)))
    (local.set $g (i32.load offset=24 (local.get $s)))
    (local.set $h (i32.load offset=28 (local.get $s)))
    (local.set $t (i32.const 0))
    (loop $round
      (local.set $t1
        (i32.add
          (i32.add
            (i32.add
              (local.get $h)
              (i32.xor (i32.xor (i32.rotr (local.get $e) (i32.const 6)) (i32.rotr (local.get $e) (i32.const 11))) (i32.rotr (local.get $e) (i32.const 25))))
            (i32.xor (i32.and (local.get $e) (local.get $f)) (i32.and (i32.xor (local.get $e) (i32.const -1)) (local.get $g))))
          (i32.add (i32.load (local.get $t)) (i32.load offset=384 (local.get $t)))))
      (local.set $t2
        (i32.add
          (i32.xor (i32.xor (i32.rotr (local.get $a) (i32.const 2)) (i32.rotr (local.get $a) (i32.const 13))) (i32.rotr (local.get $a) (i32.const 22)))
          (i32.xor (i32.xor (i32.and (local.get $a) (local.get $b)) (i32.and (local.get $a) (local.get $c))) (i32.and (local.get $b) (local.get $c)))))
      (local.set $h (local.get $g))
      (local.set $g (local.get $f))
      (local.set $f (local.get $e))
      (local.set $e (i32.add (local.get $d) (local.get $t1)))
      (local.set $d (local.get $c))
      (local.set $c (local.get $b))
      (local.set $b (local.get $a))
      (local.set $a (i32.add (local.get $t1) (local.get $t2)))
      (local.set $t (i32.add (local.get $t) (i32.const 4)))
      (br_if $round (i32.lt_u (local.get $t) (i32.const 256))))
    (i32.store (local.get $s) (i32.add (i32.load (local.get $s)) (local.get $a)))
    (i32.store offset=4 (local.get $s) (i32.add (i32.load offset=4 (local.get $s)) (local.get $b)))
    (i32.store offset=8 (local.get $s) (i32.add (i32.load offset=8 (local.get $s)) (local.get $c)))
    (i32.store offset=12 (local.get $s) (i32.add (i32.load offset=12 (local.get $s)) (local.get $d)))
    (i32.store offset=16 (local.get $s) (i32.add (i32.load offset=16 (local.get $s)) (local.get $e)))
    (i32.store offset=20 (local.get $s) (i32.add (i32.load offset=20 (local.get $s)) (local.get $f)))
    (i32.store offset=24 (local.get $s) (i32.add (i32.load offset=24 (local.get $s)) (local.get $g)))
    (i32.store offset=28 (local.get $s) (i32.add (i32.load offset=28 (local.get $s)) (local.get $h))))

  ;; The block: the key (at 704) xor each byte with $pad, a word at a time.
  (func $keyBlock (param $pad i32)
    (local $i i32)
    (loop $x
      (i32.store offset=640 (local.get $i) (i32.xor (i32.load offset=704 (local.get $i)) (local.get $pad)))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $x (i32.lt_u (local.get $i) (i32.const 64)))))

  ;; The inner and outer states of the key at 704 (64 bytes: longer keys are hashed first).
  (func (export "setKey")
    (call $keyBlock (i32.const 0x36363636))
    (call $copy (i32.const 288) (i32.const 256))
    (call $compress (i32.const 288))
    (call $keyBlock (i32.const 0x5c5c5c5c))
    (call $copy (i32.const 320) (i32.const 256))
    (call $compress (i32.const 320)))

  ;; HMAC of the $len bytes at 640 ($len at most 55: one block), in hex at 768.
  (func (export "hmac") (param $len i32)
    (local $i i32) (local $bits i32) (local $byte i32) (local $n i32)
    ;; The message's padding: 0x80, zeros, its bit length after the 64-byte key block (< 2^16).
    (i32.store8 offset=640 (local.get $len) (i32.const 0x80))
    (local.set $i (i32.add (local.get $len) (i32.const 1)))
    (block $padded
      (loop $zero
        (br_if $padded (i32.ge_u (local.get $i) (i32.const 62)))
        (i32.store8 offset=640 (local.get $i) (i32.const 0))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $zero)))
    (local.set $bits (i32.shl (i32.add (local.get $len) (i32.const 64)) (i32.const 3)))
    (i32.store8 (i32.const 702) (i32.shr_u (local.get $bits) (i32.const 8)))
    (i32.store8 (i32.const 703) (local.get $bits))
    (call $copy (i32.const 352) (i32.const 288))
    (call $compress (i32.const 352))
    ;; The outer block: the inner hash, then the padding of 64 + 32 bytes (768 bits).
    (local.set $i (i32.const 0))
    (loop $inner
      (i32.store offset=640 (local.get $i) (call $bswap (i32.load offset=352 (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $inner (i32.lt_u (local.get $i) (i32.const 32))))
    (i32.store (i32.const 672) (i32.const 0x80))
    (i64.store (i32.const 676) (i64.const 0))
    (i64.store (i32.const 684) (i64.const 0))
    (i64.store (i32.const 692) (i64.const 0))
    (i32.store (i32.const 700) (i32.const 0x00030000))
    (call $copy (i32.const 352) (i32.const 320))
    (call $compress (i32.const 352))
    ;; The digest's bytes in order, then two lowercase hex digits each.
    (local.set $i (i32.const 0))
    (loop $out
      (i32.store offset=640 (local.get $i) (call $bswap (i32.load offset=352 (local.get $i))))
      (local.set $i (i32.add (local.get $i) (i32.const 4)))
      (br_if $out (i32.lt_u (local.get $i) (i32.const 32))))
    (local.set $i (i32.const 0))
    (loop $hex
      (local.set $byte (i32.load8_u offset=640 (local.get $i)))
      (local.set $n (i32.shr_u (local.get $byte) (i32.const 4)))
      (i32.store8 offset=768 (i32.shl (local.get $i) (i32.const 1))
        (select (i32.add (local.get $n) (i32.const 48)) (i32.add (local.get $n) (i32.const 87)) (i32.lt_u (local.get $n) (i32.const 10))))
      (local.set $n (i32.and (local.get $byte) (i32.const 15)))
      (i32.store8 offset=769 (i32.shl (local.get $i) (i32.const 1))
        (select (i32.add (local.get $n) (i32.const 48)) (i32.add (local.get $n) (i32.const 87)) (i32.lt_u (local.get $n) (i32.const 10))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $hex (i32.lt_u (local.get $i) (i32.const 32)))))
)
`;

// Words as the data segment's bytes, little-endian ("\\98\\2f\\8a\\42…").
function words(values: readonly number[]): string {
  let out = "";
  for (const v of values) for (let k = 0; k < 4; k++) out += `\\${((v >>> (8 * k)) & 0xff).toString(16).padStart(2, "0")}`;
  return out;
}
