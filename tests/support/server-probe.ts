import { once } from 'node:events';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// What a request costs the server beside it: while it runs, /api/health is asked over and
// over and the process's memory sampled. For servers listening in this very process (the test's app,
// bench/hostile-uploads.ts): the CPU measure is this thread's, the server's event loop.
// Used by tests/integration/hostile-uploads.test.ts and bench/hostile-uploads.ts.

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;

export type Measured = {
  status: number;
  text: string;
  /** From the request's start to its answer. */
  tookMs: number;
  /** The longest a /api/health request took, and the most CPU this thread (the server's) spent meanwhile. */
  healthMaxMs: number;
  healthMaxCpuMs: number;
  probes: number;
  /** RSS at its peak and once settled afterwards, against the settled RSS before. */
  peakGrowthMb: number;
  afterMb: number;
};

const rss = () => process.memoryUsage().rss;

/** CPU time of this thread, in ms. */
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function settledRss(): Promise<number> {
  await collect();
  return rss();
}

/**
 * What this process's JavaScript still holds once collected: its heap, and the memory outside it
 * that its objects own (buffers). A read that kept a file, its rows or its parser alive shows here,
 * whatever the allocators beneath keep of their pages for the next read (which RSS counts).
 */
export async function settledHeldBytes(): Promise<number> {
  await collect();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return heapUsed + external + arrayBuffers;
}

/**
 * Runs `send` (a request to the server at `base`) while /api/health is asked over and over, one
 * request right after the other, so that one is always waiting: each is timed, and so is the CPU
 * the server's thread spent while it waited — what the request took from the event loop, which the
 * machine's load does not inflate (on a busy machine a request can wait for a core whatever the
 * server does). RSS is sampled every 10 ms.
 */
export async function measureWhile(
  base: string,
  send: () => Promise<{ status: number; text: string }>,
): Promise<Measured> {
  const before = await settledRss();
  let peak = before;
  let healthMaxMs = 0;
  let healthMaxCpuMs = 0;
  let probes = 0;
  let done = false;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 10);
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const cpu = threadCpuMs();
      const res = await fetch(`${base}/api/health`);
      await res.text();
      if (res.status !== 200) throw new Error(`/api/health answered ${res.status}`);
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      healthMaxCpuMs = Math.max(healthMaxCpuMs, threadCpuMs() - cpu);
      probes++;
    }
  })();
  let answer: { status: number; text: string };
  const started = performance.now();
  try {
    answer = await send();
  } finally {
    done = true;
    clearInterval(sampler);
    await probing;
  }
  const tookMs = performance.now() - started;
  const peakGrowthMb = (Math.max(peak, rss()) - before) / MB;
  // Settled again once nothing runs (the collections it forces are no part of the request's stall).
  const afterMb = ((await settledRss()) - before) / MB;
  return { ...answer, tookMs, healthMaxMs, healthMaxCpuMs, probes, peakGrowthMb, afterMb };
}

/**
 * POSTs `head` and then lines of text up to `total` bytes without a Content-Length (chunked), as
 * fast as the server reads them, and stops sending at the answer as a browser would: its status and
 * text, and the bytes sent.
 */
export function postChunked(
  url: string,
  headers: Record<string, string>,
  head: Buffer,
  total: number,
): Promise<{ status: number; text: string; sent: number }> {
  let sent = 0;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    let answered = false;
    req.on('response', async (res) => {
      answered = true;
      let text = '';
      for await (const chunk of res) text += chunk;
      req.destroy();
      resolve({ status: res.statusCode ?? 0, text, sent });
    });
    // A server that closes the connection on its answer makes later writes fail.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    (async () => {
      req.write(head);
      const chunk = Buffer.from('Acme GmbH\n'.repeat(100_000));
      while (sent < total && !answered && !req.destroyed) {
        sent += chunk.byteLength;
        if (!req.write(chunk)) await Promise.race([once(req, 'drain'), once(req, 'close')]);
      }
      if (!answered && !req.destroyed) req.end();
    })().catch(() => {});
  });
}
