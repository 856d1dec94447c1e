// The lab's link emulator (bench/lab/link.ts) keeps each direction's bytes in order whatever the jitter: a stream
// written in many small pieces within one event-loop turn arrives exactly as written (a timer a chunk delivered a
// later chunk first when its arrival was clamped to the one ahead of it, and Noise then refused the bytes).
import { once } from 'node:events';
import { createServer, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLink, type Link } from '../../../bench/lab/link.ts';

let link: Link | undefined;
const servers: { close(): void }[] = [];
afterEach(async () => {
  await link?.close();
  for (const s of servers.splice(0)) s.close();
});

describe('lab link emulator', () => {
  it('delivers a stream written in small pieces in order, with heavy jitter', async () => {
    const received: Buffer[] = [];
    const sink = createServer((socket) => socket.on('data', (chunk: Buffer) => received.push(chunk)));
    servers.push(sink);
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    link = await startLink((sink.address() as { port: number }).port, { delayMs: 5, jitter: 0.9 });
    const client: Socket = connect(link.port, '127.0.0.1');
    client.setNoDelay(true);
    await once(client, 'connect');
    const sent = Buffer.alloc(40_000);
    for (let i = 0; i < sent.length; i++) sent[i] = (i * 7 + (i >> 8)) & 0xff;
    // Bursts of small writes in one turn, then a pause: many chunks share a millisecond and a clamped arrival.
    for (let burst = 0; burst < 20; burst++) {
      for (let at = burst * 2_000; at < (burst + 1) * 2_000; at += 50) client.write(sent.subarray(at, at + 50));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const deadline = Date.now() + 10_000;
    while (Buffer.concat(received).length < sent.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    client.destroy();
    expect(Buffer.concat(received).equals(sent)).toBe(true);
  });
});
