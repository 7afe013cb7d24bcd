import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gunzipIfCompressed, isGzip } from "../../src/file/gunzipIfCompressed.ts";

async function* chunks(bytes: Uint8Array, sizes: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (let i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function read(source: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of gunzipIfCompressed(source)) parts.push(c);
  return Buffer.concat(parts).toString("utf8");
}

const text = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ row_key: `101:${i.toString(16).padStart(16, "0")}`, rssi: -60 })).join("\n");

describe("gunzipIfCompressed", () => {
  it("passes plain bytes through and decompresses gzip, however the bytes are cut (one byte first included)", async () => {
    const plain = Buffer.from(text);
    const gz = gzipSync(plain);
    for (const sizes of [[1], [1, 7, 4096], [2], [65536], [3, 1]]) {
      expect(await read(chunks(plain, sizes))).toBe(text);
      expect(await read(chunks(gz, sizes))).toBe(text);
    }
    expect(await read(chunks(Buffer.alloc(0), [1]))).toBe("");
    expect(await read(chunks(Buffer.from("{"), [1]))).toBe("{");
  });

  it("rejects a cut gzip stream with zlib's error, and a failing source with its own", async () => {
    const gz = gzipSync(Buffer.from(text));
    await expect(read(chunks(gz.subarray(0, gz.length - 40), [512]))).rejects.toThrow(/unexpected end of file/);
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield gz.subarray(0, 100);
      throw new Error("disk gone");
    }
    await expect(read(failing())).rejects.toThrow("disk gone");
  });

  it("stops reading the source when the reader stops early", async () => {
    const gz = gzipSync(Buffer.from(text.repeat(20)));
    let pulled = 0;
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let at = 0; at < gz.length; at += 64) {
          pulled++;
          yield gz.subarray(at, at + 64);
        }
      } finally {
        closed = true;
      }
    }
    for await (const chunk of gunzipIfCompressed(source())) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
    expect(pulled).toBeLessThan(Math.ceil(gz.length / 64));
  });

  it("tells gzip by its two magic bytes", () => {
    expect(isGzip(Buffer.from([0x1f, 0x8b]))).toBe(true);
    expect(isGzip(Buffer.from([0x1f]))).toBe(false);
    expect(isGzip(Buffer.from("{}"))).toBe(false);
  });
});
