import { SingleBar } from 'cli-progress';

/** A progress bar on stderr for long CLI work (quiet when stderr is not a terminal). */
export function progressBar(unit: string, total: number): { update(done: number): void; stop(): void } {
  const bar = new SingleBar({
    format: `{bar} {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
    stream: process.stderr,
    noTTYOutput: false,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
