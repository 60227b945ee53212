import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './public-hosts.ts';

// A webhook's POST made to the addresses that were checked (core/webhooks/public-hosts.ts), not
// to whatever the name resolves to a moment later: the connection's lookup answers with the
// checked addresses, so a name that rebinds to 127.0.0.1 after the check cannot reach it. The URL
// is untouched, so the Host header and TLS (SNI and the certificate's name) are the original
// host's. Redirects are not followed; no connection is kept for the next request.

export type PostAnswer = { status: number };

/** Posts `body` to `url`, connecting only to `addresses`; resolves with the answer's status. */
export function postToAddresses(
  url: URL,
  addresses: ResolvedAddress[],
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
): Promise<PostAnswer> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    if (usable.length === 0) {
      callback(Object.assign(new Error(`${url.hostname}: no checked IPv${family} address`), { code: 'ENOTFOUND' }), '');
    } else if (options.all) {
      (callback as unknown as (error: null, all: ResolvedAddress[]) => void)(null, usable);
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
        lookup,
        agent: false,
        signal: AbortSignal.timeout(init.timeoutMs),
      },
      (response) => {
        // Only the status counts: the rest of the answer is not read.
        response.destroy();
        resolve({ status: response.statusCode ?? 0 });
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
