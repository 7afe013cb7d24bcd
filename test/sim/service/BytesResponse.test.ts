import { describe, expect, it } from "vitest";
import { BytesResponse } from "../../../src/sim/service/BytesResponse.ts";

const bytes = () => new TextEncoder().encode('{"a":[1,2,3],"s":"é"}');
const init = { status: 200, headers: { "content-type": "application/json" } };

describe("BytesResponse", () => {
  it("is a Response whose body reads like a standard one", async () => {
    const res = new BytesResponse(bytes(), init);
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.bodyUsed).toBe(false);
    expect(await res.json()).toEqual({ a: [1, 2, 3], s: "é" });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(TypeError);
  });

  it("supports text, arrayBuffer, blob, clone and the body stream", async () => {
    expect(await new BytesResponse(bytes(), init).text()).toBe('{"a":[1,2,3],"s":"é"}');
    expect(new Uint8Array(await new BytesResponse(bytes(), init).arrayBuffer())).toEqual(bytes());
    expect(await (await new BytesResponse(bytes(), init).blob()).text()).toBe('{"a":[1,2,3],"s":"é"}');
    const original = new BytesResponse(bytes(), init);
    const copy = original.clone();
    expect(await copy.text()).toBe(await original.text());
    const streamed = new BytesResponse(bytes(), init);
    expect(await new Response(streamed.body).text()).toBe('{"a":[1,2,3],"s":"é"}');
    expect(streamed.bodyUsed).toBe(true);
    const touched = new BytesResponse(bytes(), init);
    void touched.body;
    expect(await touched.json()).toEqual({ a: [1, 2, 3], s: "é" });
  });
});
