/**
 * Test helper: a scripted, recording `fetch`. Each call takes the next step of the script
 * (the last step repeats), records the request, and honours `init.signal` like the
 * platform fetch does.
 */
export interface RecordedCall {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: string | undefined;
  /** Date.now() at the call (virtual under fake timers). */
  readonly at: number;
}

export type Step = Response | Error | ((call: RecordedCall, signal: AbortSignal | undefined) => Response | Promise<Response>);

export interface FakeFetch {
  readonly fetch: typeof fetch;
  readonly calls: RecordedCall[];
}

export function fakeFetch(...script: Step[]): FakeFetch {
  const calls: RecordedCall[] = [];
  let i = 0;
  const impl = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: new Headers(init?.headers),
      body: typeof init?.body === "string" ? init.body : undefined,
      at: Date.now(),
    };
    calls.push(call);
    const step = script[Math.min(i++, script.length - 1)];
    if (step === undefined) throw new Error("fakeFetch: empty script");
    const signal = init?.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    if (step instanceof Error) throw step;
    if (step instanceof Response) return step.clone();
    return step(call, signal);
  };
  return { fetch: impl as typeof fetch, calls };
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** A plain-text response with the given status. */
export function status(code: number, text = "", headers: Record<string, string> = {}): Response {
  return new Response(text, { status: code, headers });
}

/** A fetch step that never answers until its signal aborts (then rejects like fetch). */
export function hang(): Step {
  return (_call, signal) =>
    new Promise<Response>((_resolve, reject) => {
      signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
}

/** A fetch step whose headers arrive at once but whose body sends `head` and then stalls. */
export function stalledBody(head: string): Step {
  return () => {
    const encoder = new TextEncoder();
    let sent = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(encoder.encode(head));
          return;
        }
        return new Promise<void>(() => {}); // never delivers the rest
      },
    });
    return new Response(stream, { status: 200, headers: { "content-type": "application/json" } });
  };
}

export const BRANDS = [
  { id: 1, name: "Cafe Mori" },
  { id: 2, name: "Tea House" },
  { id: 3, name: "Bakery & Co 모리" },
];

export const SETTINGS = {
  baseUrl: "http://sales.test",
  signalUrl: "http://signals.test/prefix/",
  email: "ops@example.com",
  token: "tok-123",
} as const;
