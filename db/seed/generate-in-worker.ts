// Generates the seed's batches in worker threads (batch-worker.ts), so that generation and COPY
// overlap: the main thread only streams. Worker i of n makes batches i, i + n, i + 2n, … and stays
// at most `ahead` batches in front of what the main thread has taken; batches come out in order.

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { WorkerInput } from './batch-worker.ts';
import { type BatchMessage, batchFromMessage, type CsvBatch } from './copy-rows.ts';
import type { CatalogSource } from './seed-catalog.ts';

/**
 * Workers for a load: generation costs more CPU per row than COPY, so on a small machine two
 * workers share the cores with the database; a larger machine gets one more per two cores.
 */
export const defaultWorkers = (batches: number): number =>
  Math.max(1, Math.min(batches, Math.max(2, Math.floor(availableParallelism() / 2))));

/** Batches of companies `ranges` (first, last), in order, generated in worker threads. */
export async function* batchesInWorker(
  source: CatalogSource,
  seed: number,
  ranges: [number, number][],
  options: { workers?: number; ahead?: number } = {},
): AsyncGenerator<CsvBatch> {
  const count = options.workers ?? defaultWorkers(ranges.length);
  const ahead = options.ahead ?? 2;
  let failure: Error | null = null;
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  const workers = Array.from({ length: count }, (_, i) => {
    const mine = ranges.filter((_, k) => k % count === i);
    const worker = new Worker(new URL('./batch-worker.ts', import.meta.url), {
      workerData: { source, seed, ranges: mine } satisfies WorkerInput,
    });
    const ready: BatchMessage[] = [];
    worker.on('message', (message: BatchMessage) => {
      ready.push(message);
      notify();
    });
    worker.on('error', (error) => {
      failure = error;
      notify();
    });
    worker.on('exit', (code) => {
      if (code !== 0) failure ??= new Error(`a batch worker stopped with exit code ${code}`);
      notify();
    });
    worker.postMessage(ahead);
    return { worker, ready };
  });
  try {
    for (let k = 0; k < ranges.length; k++) {
      const { worker, ready } = workers[k % count];
      while (ready.length === 0 && failure === null) await new Promise<void>((resolve) => (wake = resolve));
      const message = ready.shift();
      if (message === undefined) throw failure ?? new Error('a batch worker stopped');
      worker.postMessage(1);
      yield batchFromMessage(message);
    }
  } finally {
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}
