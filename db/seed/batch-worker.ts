// Worker thread of generate-in-worker.ts: generates the batches it is given credit for and posts
// them back in order.

import { parentPort, workerData } from 'node:worker_threads';
import { batchMessage } from './copy-rows.ts';
import { generateBatch } from './generate-batch.ts';
import { createPersonPool } from './member-pool.ts';
import { buildSeedCatalog, type CatalogSource } from './seed-catalog.ts';

export type WorkerInput = { source: CatalogSource; seed: number; ranges: [number, number][] };

if (parentPort !== null) {
  const port = parentPort;
  const { source, seed, ranges } = workerData as WorkerInput;
  const catalog = buildSeedCatalog(source);
  const pool = createPersonPool(catalog.personCountries);
  let credit = 0;
  let next = 0;
  port.on('message', (more: number) => {
    credit += more;
    while (credit > 0 && next < ranges.length) {
      credit--;
      const [first, last] = ranges[next++];
      port.postMessage(batchMessage(generateBatch(catalog, pool, seed, first, last)));
    }
  });
}
