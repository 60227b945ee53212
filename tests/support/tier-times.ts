// A Vitest reporter that writes how long each tier (project) took, file by file, to the JSON file
// named by REGISTRA_TIER_TIMES; `npm test` (scripts/test.ts) prints the summary at the end.
//
//   REGISTRA_TIER_TIMES=/tmp/times.json npx vitest run --reporter=default --reporter=./tests/support/tier-times.ts
//
// A file's time is what its worker spent on it: start-up, imports (collect) and its tests and hooks;
// its CPU time (user + system, of the worker alone) comes from tests/support/file-cpu.ts.
// Files of different tiers run side by side, so a tier's summed file time can exceed the wall time.

import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

export type FileTime = {
  file: string;
  /** Seconds: start-up (environment, harness, setup files) + imports (collect) + tests and hooks. */
  total: number;
  imports: number;
  tests: number;
  /** Seconds of the worker's CPU (user + system) for the file: imports, hooks and tests. */
  cpu: number;
  started: number;
};

export type TierTimes = Record<string, FileTime[]>;

export default class TierTimesReporter implements Reporter {
  private readonly starts = new Map<TestModule, number>();

  onTestModuleStart(module: TestModule): void {
    this.starts.set(module, Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const output = process.env.REGISTRA_TIER_TIMES;
    if (!output) return;
    const tiers: TierTimes = {};
    for (const module of modules) {
      const d = module.diagnostic();
      const startUp = d.environmentSetupDuration + d.prepareDuration + d.setupDuration;
      const time: FileTime = {
        file: module.relativeModuleId,
        total: seconds(startUp + d.collectDuration + d.duration),
        imports: seconds(d.collectDuration),
        tests: seconds(d.duration),
        cpu: Math.round((module.meta().cpu ?? 0) * 1000) / 1000,
        started: this.starts.get(module) ?? 0,
      };
      const tier = module.project.name || 'default';
      tiers[tier] = [...(tiers[tier] ?? []), time];
    }
    writeFileSync(output, JSON.stringify(tiers));
  }
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
