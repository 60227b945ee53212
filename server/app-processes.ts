import cluster, { type Worker } from 'node:cluster';

// Several app processes on one port (WEB_CONCURRENCY, docs/decisions/0024-processes-and-replicas.md):
// Node's cluster forks them, the supervising process holds the port and hands connections round.
// Each app process is a whole app (its own pool, caches, job worker); the database is what they
// share. The supervisor says ready once every process is; a process that dies while starting
// stops the whole start (a bad setting would fail in every replacement too), one that dies later
// is replaced. SIGTERM or SIGINT stops them all, each finishing its requests and its running job.

export type SuperviseOptions = {
  count: number;
  onReady: () => void;
  onStartFailure: (code: number | null) => void;
};

/** A process that dies this soon after its start, or more often than this, is not replaced at once. */
const RESTART_DELAY_MS = 1_000;

export function superviseAppProcesses(options: SuperviseOptions): void {
  const ready = new Set<number>();
  const alive = () => Object.values(cluster.workers ?? {}).filter((worker) => worker && !worker.isDead()).length;
  let everyoneReady = false;
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if ((message as { ready?: boolean } | null)?.ready !== true) return;
      ready.add(worker.id);
      if (!everyoneReady && ready.size === options.count) {
        everyoneReady = true;
        options.onReady();
      }
    });
    return worker;
  };
  cluster.on('exit', (worker: Worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) {
      if (alive() === 0) process.exit(0);
      return;
    }
    if (!wasReady && !everyoneReady) {
      stopAll();
      options.onStartFailure(code);
      return;
    }
    console.error(`An app process (pid ${worker.process.pid}) ended (${signal ?? code}); starting another`);
    setTimeout(() => {
      if (!stopping) fork();
    }, RESTART_DELAY_MS).unref();
  });
  const stopAll = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  const shutdown = () => {
    if (stopping) return;
    stopAll();
    if (alive() === 0) process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  for (let i = 0; i < options.count; i++) fork();
}
