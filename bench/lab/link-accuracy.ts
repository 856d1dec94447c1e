/**
 * The link emulator's own accuracy (docs/network.md "The link emulator"): what delay and rate a link actually gives.
 * An echo server behind a link: 50 one-byte round trips (one-way ≈ RTT / 2, against the set delay), then 2 MB sent
 * through a rate-capped link (measured rate against the cap).
 *
 *   npx tsx bench/lab/link-accuracy.ts [delayMs=100] [rateMbps=10]
 */
import { connect, createServer } from 'node:net';
import { startLink } from './link.ts';

const delayMs = Number(process.argv[2] ?? 100);
const rateBytesPerS = (Number(process.argv[3] ?? 10) * 1e6) / 8;

const echo = createServer((s) => s.pipe(s));
await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
const echoPort = (echo.address() as { port: number }).port;

async function oneWay(): Promise<number[]> {
  const link = await startLink(echoPort, { delayMs, jitter: 0 });
  const socket = connect(link.port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((r) => socket.once('connect', r));
  const samples: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    socket.write(Uint8Array.of(i));
    await new Promise((r) => socket.once('data', r));
    samples.push((performance.now() - t) / 2);
  }
  socket.destroy();
  await link.close();
  return samples.sort((a, b) => a - b);
}

async function rate(): Promise<number> {
  const link = await startLink(echoPort, { delayMs: 0, jitter: 0, rateBytesPerS });
  const socket = connect(link.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const total = 2_000_000;
  let received = 0;
  const t = performance.now();
  const done = new Promise<void>((r) => socket.on('data', (chunk: Buffer) => void ((received += chunk.length) >= total && r())));
  socket.write(new Uint8Array(total));
  await done;
  const seconds = (performance.now() - t) / 1000;
  socket.destroy();
  await link.close();
  // The echo crosses the link twice, each direction capped on its own line: the bytes take total/rate each way,
  // pipelined, so the elapsed time is ~total/rate (plus one chunk).
  return total / seconds;
}

const samples = await oneWay();
const measured = await rate();
const q = (p: number) => samples[Math.floor(p * (samples.length - 1))]!.toFixed(1);
console.log(`one-way delay set ${delayMs} ms: measured p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms (50 round trips / 2)`);
console.log(`rate cap ${(rateBytesPerS * 8) / 1e6} Mbit/s: measured ${((measured * 8) / 1e6).toFixed(2)} Mbit/s on 2 MB (${((measured / rateBytesPerS) * 100).toFixed(1)} % of the cap)`);
echo.close();
