// A PostgreSQL server of our own, for benches and tests of the server's behaviour (restarts,
// streaming replicas): initdb into a folder, a free loopback port, pg_ctl to start and stop it,
// pg_basebackup -R for a replica. As root the tools run as the `postgres` user (the server refuses
// to run as root) and the folder is given to that user.

import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

async function pgBin(name: string): Promise<string> {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  const versions = existsSync('/usr/lib/postgresql') ? await readdir('/usr/lib/postgresql') : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest && existsSync(`/usr/lib/postgresql/${newest}/bin/${name}`))
    return `/usr/lib/postgresql/${newest}/bin/${name}`;
  throw new Error(`${name} not found: install PostgreSQL's server binaries (Debian: postgresql)`);
}

/**
 * Runs a PostgreSQL tool, as the `postgres` user when we are root. Its output goes nowhere: a
 * server that pg_ctl starts would hold a pipe open for ever.
 */
async function pgTool(name: string, toolArgs: string[]): Promise<void> {
  const bin = await pgBin(name);
  const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...toolArgs]] : [bin, toolArgs];
  const child = spawn(command, commandArgs, { cwd: tmpdir(), stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${name} ${toolArgs[0]} failed (exit ${code})`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A folder the server's user may write (removed by the caller). */
export async function ownPostgresFolder(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  return dir;
}

export class OwnPostgres {
  readonly dir: string;
  readonly port: number;
  constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
  }
  /** A new server in a folder of its own under `parent` (made by ownPostgresFolder), on a free port. */
  static async in(parent: string, name: string): Promise<OwnPostgres> {
    return new OwnPostgres(join(parent, name), await freePort());
  }
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }
  get data(): string {
    return join(this.dir, 'data');
  }
  async init(): Promise<void> {
    await pgTool('initdb', ['-D', this.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  }
  /** A streaming replica of `primary` (running): pg_basebackup -R writes the standby's settings. */
  async initReplicaOf(primary: OwnPostgres): Promise<void> {
    await pgTool('pg_basebackup', [
      '-D',
      this.data,
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'postgres',
      '-X',
      'stream',
      '-R',
      '--no-sync',
      // The backup starts after an immediate checkpoint, not a spread one (up to 90 s of waiting).
      '--checkpoint=fast',
    ]);
  }
  /** Starts it; `durable: false` (tests) skips fsync, which a crash-free run does not need. */
  start(options: { durable?: boolean } = {}): Promise<void> {
    const fsync = options.durable === false ? 'off' : 'on';
    const settings = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=${fsync}`;
    return pgTool('pg_ctl', ['start', '-w', '-D', this.data, '-l', join(this.dir, 'server.log'), '-o', settings]);
  }
  stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    return pgTool('pg_ctl', ['stop', '-w', '-D', this.data, '-m', mode]);
  }
  restart(): Promise<void> {
    return pgTool('pg_ctl', ['restart', '-w', '-D', this.data, '-m', 'fast', '-l', join(this.dir, 'server.log')]);
  }
}

/** Stops the servers (ignoring ones already stopped) and removes their folder. */
export async function removeOwnPostgres(dir: string, servers: OwnPostgres[]): Promise<void> {
  for (const server of servers) await server.stop('immediate').catch(() => {});
  await rm(dir, { recursive: true, force: true });
}
