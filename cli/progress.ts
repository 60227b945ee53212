import { SingleBar } from 'cli-progress';

export type ProgressBar = { update(done: number): void; stop(): void };

/** A progress bar on stderr for long CLI work (quiet when stderr is not a terminal). */
export function progressBar(unit: string, total: number): ProgressBar {
  const bar = new SingleBar({
    format: `{bar} {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
    stream: process.stderr,
    noTTYOutput: false,
  });
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
