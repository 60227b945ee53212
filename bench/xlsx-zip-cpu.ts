import { Writable } from 'node:stream';

// Before/after CPU of writing an XLSX (ADR 0041): 20,000 rows into a sink, the two writers
// alternating, medians of process CPU time. Usage: node bench/xlsx-zip-cpu.ts <old.ts> <new.ts> [runs]
const [oldPath, newPath, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 7);
const writers = {
  old: (await import(oldPath)).xlsxWriter,
  new: (await import(newPath)).xlsxWriter,
};
const columns = [
  { key: 'name', label: 'Name', type: 'text' },
  { key: 'founded', label: 'Founded', type: 'date' },
  { key: 'capital', label: 'Capital', type: 'number' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'city', label: 'City', type: 'text' },
];
const rows = Array.from({ length: 20_000 }, (_, i) => [
  `Company ${i} GmbH & Co. KG`,
  `20${String(i % 25).padStart(2, '0')}-0${(i % 9) + 1}-1${i % 10}`,
  i * 137.5,
  i % 2 === 0,
  `City ${i % 500}`,
]);
async function once(kind: 'old' | 'new'): Promise<{ cpu: number; bytes: number }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk, _enc, cb) {
      bytes += chunk.length;
      setImmediate(cb);
    },
  });
  const start = process.cpuUsage();
  const w = writers[kind](sink, columns, 'Export');
  for (let i = 0; i < rows.length; i += 500) await w.writeRows(rows.slice(i, i + 500));
  await w.finish();
  const used = process.cpuUsage(start);
  return { cpu: (used.user + used.system) / 1000, bytes };
}
const times: Record<string, number[]> = { old: [], new: [] };
const sizes: Record<string, number> = {};
for (let r = 0; r < runs + 1; r++) {
  for (const kind of r % 2 ? (['new', 'old'] as const) : (['old', 'new'] as const)) {
    const { cpu, bytes } = await once(kind);
    sizes[kind] = bytes;
    if (r > 0) times[kind].push(cpu);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const kind of ['old', 'new'] as const) {
  console.log(
    `${kind}: median ${median(times[kind]).toFixed(1)} ms CPU, ${sizes[kind]} bytes, runs ${times[kind].map((t) => t.toFixed(0)).join(' ')}`,
  );
}
console.log(`ratio new/old: ${(median(times.new) / median(times.old)).toFixed(2)}`);
