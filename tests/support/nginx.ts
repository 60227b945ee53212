// Debian's nginx on loopback in front of app processes, for the tests of what a real proxy does:
// round robin over several processes (tests/integration-postgres/processes-behind-nginx.test.ts),
// and a shared cache (`proxy_cache`) in front of one (tests/integration/caching-behind-nginx.test.ts).

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectOutput, freePort } from './app-processes.ts';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type Nginx = { child: ChildProcess; url: string; dir: string; output: () => string };

/**
 * nginx in front of the given ports (round robin), on a free loopback port (or `port`); names the
 * process it used in X-Upstream. With `cache`, it keeps responses as a shared cache would
 * (`proxy_cache`, honouring Cache-Control and Vary; 200s and redirects without a policy kept for
 * 10 minutes, as a careless operator would set it) and says what it did in X-Cache-Status.
 */
export async function startNginx(ports: number[], options: { cache?: boolean; port?: number } = {}): Promise<Nginx> {
  if (!NGINX) throw new Error('nginx is missing: `apt-get install -y nginx-light` (Debian); .ci/run installs it');
  const dir = await mkdtemp(join(tmpdir(), 'registra-nginx-'));
  // As root nginx's workers run as nobody: they may need to write request bodies (and the cache) here.
  await mkdir(join(dir, 'temp'));
  await chmod(join(dir, 'temp'), 0o777);
  await chmod(dir, 0o755);
  const port = options.port ?? (await freePort());
  const temp = join(dir, 'temp');
  const cache = options.cache
    ? {
        http: `  proxy_cache_path ${temp}/cache levels=1:2 keys_zone=pages:1m max_size=64m inactive=10m use_temp_path=off;`,
        location: `      proxy_cache pages;
      proxy_cache_valid 200 301 302 10m;
      add_header X-Cache-Status $upstream_cache_status always;`,
      }
    : { http: '', location: '' };
  await writeFile(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
${cache.http}
  upstream registra {
${ports.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://registra;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      add_header X-Upstream $upstream_addr always;
${cache.location}
    }
  }
}
`,
  );
  const child = spawn(
    NGINX,
    ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = collectOutput(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${output()}`);
    const up = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 100) throw new Error(`nginx did not answer: ${output()}`);
    await sleep(100);
  }
  return { child, url, dir, output };
}

export async function stopNginx(nginx: Nginx): Promise<void> {
  if (nginx.child.exitCode === null) {
    const exited = new Promise((resolve) => nginx.child.once('exit', resolve));
    nginx.child.kill('SIGQUIT');
    await Promise.race([exited, sleep(5_000)]);
    if (nginx.child.exitCode === null) nginx.child.kill('SIGKILL');
  }
  await rm(nginx.dir, { recursive: true, force: true });
}

/** The app process that answered through nginx (its port). */
export const upstream = (response: Response) => response.headers.get('x-upstream') ?? '';
