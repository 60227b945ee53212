// `npm test`: Chromium check, lint, typecheck, build, then every Vitest tier (unit, integration on
// PGlite — and PostgreSQL when TEST_DATABASE_URL is set — and the browser journeys, in a Vitest
// process of its own started beside the others: ADR 0039).
// Lint and typecheck count as one test each. The last line is always `N passed, N failed`, which
// is what CI reads; the exit code is non-zero when anything failed or when no test ran.
// Extra arguments go to Vitest: `npm test -- --project unit`.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findHeadlessShell, findTestChromium } from '../e2e/support/chromium-path.ts';
import type { TierTimes } from '../tests/support/tier-times.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');
// The project's own Node (node_modules/.bin/node) and tools come first, whoever started us.
const ENV = { ...process.env, PATH: `${BIN}${delimiter}${process.env.PATH ?? ''}` };

type Outcome = { passed: number; failed: number; failures: string[] };
const outcome: Outcome = { passed: 0, failed: 0, failures: [] };
/** How long each step and tier took, printed before the totals. */
const timings: string[] = [];

await ensureChromium();
await ensureNginx();

await check('lint', [['biome', 'check', '.']]);
await check('typecheck', [
  ['react-router', 'typegen'],
  ['tsc', '--noEmit'],
]);
// The browser tests serve the production build; a failed build is one more failure.
if ((await step('build', ['react-router', 'build'])) !== 0) {
  outcome.failed += 1;
  outcome.failures.push('build (react-router build)');
}
await runVitest(process.argv.slice(2));

console.log('\nTimes:');
for (const line of timings) console.log(`  ${line}`);
if (outcome.failures.length > 0) {
  console.log('\nFailed:');
  for (const failure of outcome.failures) console.log(`  - ${failure}`);
}
console.log(`${outcome.passed} passed, ${outcome.failed} failed`);
process.exitCode = outcome.failed > 0 ? 1 : 0;

/**
 * Browser tests are never skipped: install Chromium's headless shell when we may (what they drive
 * when it is there: e2e/support/chromium-path.ts), else make do with the browser, else stop with what to do.
 */
async function ensureChromium(): Promise<void> {
  if (!findHeadlessShell()) await aptInstall('chromium-headless-shell');
  if (findTestChromium() || ((await aptInstall('chromium')) && findTestChromium())) return;
  console.error(
    'Browser tests need Chromium: run `sudo apt-get install -y chromium-headless-shell` (Debian) or put a `chromium` executable on PATH, then run `npm test` again.',
  );
  process.exit(1);
}

/**
 * Both tiers put the app behind nginx: a shared cache in front of it (tests/integration/caching-behind-nginx.test.ts),
 * and on PostgreSQL two app processes (tests/integration-postgres/processes-behind-nginx.test.ts):
 * install Debian's when we may, else stop with what to do.
 */
async function ensureNginx(): Promise<void> {
  if (existsSync('/usr/sbin/nginx') || onPath('nginx')) return;
  if (await aptInstall('nginx-light')) return;
  console.error('The tests need nginx: run `sudo apt-get install -y nginx-light` (Debian), then run `npm test` again.');
  process.exit(1);
}

/** Installs a Debian package when we are root and have apt-get; true when it was installed. */
async function aptInstall(name: string): Promise<boolean> {
  if (process.getuid?.() !== 0 || !onPath('apt-get')) return false;
  console.log(`${name} is missing: installing the Debian package (apt-get install -y ${name})…`);
  const env = { ...ENV, DEBIAN_FRONTEND: 'noninteractive' };
  return (await run('apt-get', ['update'], env)) === 0 && (await run('apt-get', ['install', '-y', name], env)) === 0;
}

/** A check that counts as one test: every command must succeed; later commands still run after a failure. */
async function check(name: string, commands: string[][]): Promise<void> {
  let ok = true;
  for (const [command, ...args] of commands) {
    if (!ok) break;
    ok = (await step(name, [command, ...args])) === 0;
  }
  if (ok) outcome.passed += 1;
  else {
    outcome.failed += 1;
    outcome.failures.push(`${name} (${commands.map((c) => c.join(' ')).join(' && ')})`);
  }
}

async function step(name: string, [command, ...args]: string[], env: NodeJS.ProcessEnv = ENV): Promise<number> {
  console.log(`\n── ${name}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const code = await run(command, args, env);
  const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
  console.log(`── ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${took}`);
  timings.push(`${`${name} ${[command, ...args].slice(0, 2).join(' ')}`.padEnd(36)} ${took.padStart(8)}`);
  return code;
}

type JsonReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    status: string;
    message?: string;
    assertionResults: { status: string; fullName: string }[];
  }[];
};

/**
 * Every tier. Without arguments, two Vitest processes start together (ADR 0039): the browser tier,
 * which spends most of its time waiting on Chromium and its server, beside unit and integration,
 * which keep their two workers busy; the browser tier's output is printed when both are done.
 * With arguments, one process runs what they ask for.
 */
async function runVitest(extra: string[]): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'registra-vitest-'));
  try {
    const runs: { name: string; args: string[]; quiet?: boolean }[] =
      extra.length > 0
        ? [{ name: 'vitest', args: extra }]
        : [
            {
              name: 'vitest unit+integration',
              args: [
                ...['--project', 'unit', '--project', 'integration'],
                ...(process.env.TEST_DATABASE_URL ? ['--project', 'integration-postgres'] : []),
              ],
            },
            { name: 'vitest e2e', args: ['--project', 'e2e'], quiet: true },
          ];
    const started = Date.now();
    const results = await Promise.all(runs.map((r, i) => runVitestProcess(r, join(dir, String(i)))));
    if (runs.length > 1) {
      timings.push(
        `${'vitest (together)'.padEnd(36)} ${`${((Date.now() - started) / 1000).toFixed(1)} s`.padStart(8)}`,
      );
    }
    for (const { output } of results) if (output) process.stdout.write(output);
    const tiers: TierTimes = {};
    for (const result of results) Object.assign(tiers, result.tiers);
    printTiers(tiers);
    for (const result of results) count(result);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

type VitestRun = { name: string; code: number; report?: JsonReport; tiers: TierTimes; output: string };

async function runVitestProcess(
  { name, args, quiet }: { name: string; args: string[]; quiet?: boolean },
  prefix: string,
): Promise<VitestRun> {
  const reportFile = `${prefix}-report.json`;
  const timesFile = `${prefix}-tiers.json`;
  const command = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${reportFile}`,
    '--reporter=./tests/support/tier-times.ts',
    ...args,
  ];
  const env = { ...ENV, REGISTRA_TIER_TIMES: timesFile };
  let output = '';
  let code: number;
  if (quiet) {
    console.log(`\n── ${name}: ${command.join(' ')} (its output follows when it is done)`);
    const started = Date.now();
    const captured = await capture(command, env);
    code = captured.code;
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    output = `\n── ${name}: ${command.join(' ')}\n${captured.output}── ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${took}\n`;
    timings.push(`${`${name}`.padEnd(36)} ${took.padStart(8)}`);
  } else {
    code = await step(name, command, env);
  }
  const tiers = existsSync(timesFile) ? (JSON.parse(await readFile(timesFile, 'utf8')) as TierTimes) : {};
  const report = existsSync(reportFile) ? (JSON.parse(await readFile(reportFile, 'utf8')) as JsonReport) : undefined;
  return { name, code, report, tiers, output };
}

/** Adds one Vitest process's tests to the outcome. */
function count({ name, code, report }: VitestRun): void {
  if (!report) {
    outcome.failed += 1;
    outcome.failures.push(`${name} (exit ${code}, no report written)`);
    return;
  }
  let failed = report.numFailedTests;
  for (const file of report.testResults) {
    for (const test of file.assertionResults) {
      if (test.status === 'failed') outcome.failures.push(`${relative(file.name)} › ${test.fullName}`);
    }
    // A file that failed outside any test (import error, failing hook) is one failure of its own.
    if (file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed')) {
      failed += 1;
      outcome.failures.push(`${relative(file.name)} (${firstLine(file.message) || 'failed outside a test'})`);
    }
  }
  if (report.numPassedTests + failed === 0) {
    failed += 1;
    outcome.failures.push(`${name} (no test ran)`);
  } else if (code !== 0 && failed === 0) {
    failed += 1;
    outcome.failures.push(`${name} (exit ${code}: errors outside the tests, see above)`);
  }
  outcome.passed += report.numPassedTests;
  outcome.failed += failed;
}

/**
 * Per tier: files, the time its files took (summed over the files: the work it costs, whatever
 * ran beside it), the part spent importing modules, the span from its first file's start to its
 * last file's end, and its slowest file.
 */
function printTiers(tiers: TierTimes): void {
  for (const [tier, files] of Object.entries(tiers)) {
    if (files.length === 0) continue;
    const sum = (pick: (f: TierTimes[string][number]) => number) => files.reduce((total, f) => total + pick(f), 0);
    const started = Math.min(...files.map((f) => f.started));
    const ended = Math.max(...files.map((f) => f.started + f.total * 1000));
    const slowest = files.reduce((a, b) => (b.total > a.total ? b : a));
    timings.push(
      `${`tier ${tier} (${files.length} files)`.padEnd(36)} ${`${sum((f) => f.total).toFixed(1)} s`.padStart(8)}` +
        ` (cpu ${sum((f) => f.cpu ?? 0).toFixed(1)} s; imports ${sum((f) => f.imports).toFixed(1)} s; span ${((ended - started) / 1000).toFixed(1)} s;` +
        ` slowest ${slowest.file} ${slowest.total.toFixed(1)} s)`,
    );
  }
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = ENV): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', (error) => {
      console.error(`Could not run ${command}: ${error.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/** Runs a command with its output (stdout and stderr, interleaved) kept instead of printed. */
function capture([command, ...args]: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => {
      chunks.push(Buffer.from(`Could not run ${command}: ${error.message}\n`));
      resolve({ code: 127, output: Buffer.concat(chunks).toString('utf8') });
    });
    child.on('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

function onPath(command: string): boolean {
  return (ENV.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function relative(path: string): string {
  return path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').trim().split('\n')[0]?.slice(0, 200) ?? '';
}
