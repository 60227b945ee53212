// Runs one autocannon load test in its own process, so that the load generator does not share the
// server's event loop (autocannon in a worker thread returns encoded histograms instead of figures).
// Input: a JSON LoadInput on standard input. Output: the autocannon result as JSON on standard output.
import { text } from 'node:stream/consumers';
import autocannon from 'autocannon';

export type LoadInput = {
  url: string;
  paths: string[];
  connections: number;
  seconds: number;
  headers: Record<string, string>;
};

const input = JSON.parse(await text(process.stdin)) as LoadInput;
let next = 0;
const result = await autocannon({
  url: input.url,
  connections: input.connections,
  duration: input.seconds,
  timeout: 5,
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => {
        const path = input.paths[next % input.paths.length];
        next++;
        return { ...request, path, headers: { ...request.headers, ...input.headers } };
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
