#!/usr/bin/env node
// A TCP forwarder that holds what the server sends to a fixed rate (bytes per
// second), as a network link of that speed would: what hashing adds to a
// download over a real link, rather than over loopback, where the download
// outruns SHA-256 (bench/README.md, "Hashing"). The client's bytes go
// through as they come; only the answer is paced (a token bucket from the
// connection's start). No CPU-heavy work: one pause and one timer per
// burst ahead of the rate.
//
//   node bench/rate-proxy.mjs TARGET_URL --mbit 1000   (prints its URL)
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** Starts the forwarder to `target` (an http:// URL); resolves with its URL and close(). */
export async function startRateProxy(target, bytesPerSecond) {
  const { hostname, port } = new URL(target);
  const sockets = new Set();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const started = process.hrtime.bigint();
    let sent = 0;
    client.pipe(upstream);
    upstream.on('data', (chunk) => {
      sent += chunk.length;
      const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
      const ahead = sent / bytesPerSecond - elapsed;
      if (!client.write(chunk) || ahead > 0) {
        upstream.pause();
        setTimeout(() => upstream.resume(), Math.max(0, ahead * 1000));
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    upstream.on('end', () => client.end()).on('error', end).on('close', end);
    client.on('error', end).on('close', end);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { mbit: { type: 'string', default: '1000' } } });
  const proxy = await startRateProxy(positionals[0], (Number(values.mbit) * 1e6) / 8);
  console.log(proxy.url);
}
