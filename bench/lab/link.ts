/**
 * A link emulator for the network lab (docs/network.md "The link emulator"): a TCP relay on 127.0.0.1 in front of
 * one node's p2p port that gives what passes through it a one-way delay with jitter and a bandwidth cap, and can be
 * cut and restored. This kernel has no `netem`; a relay in userspace needs no root and no namespaces, and its own
 * accuracy is measured (bench/lab/link-accuracy.ts).
 *
 * Each direction is a FIFO: a chunk leaves the sender's side when the line is free (serialisation at `rateBytesPerS`)
 * and arrives `delay · (1 ± jitter)` later, never before the chunk ahead of it (TCP does not reorder).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface LinkShape {
  /** One-way delay in ms. */
  readonly delayMs: number;
  /** Relative jitter of the delay, e.g. 0.2 for ±20 %. */
  readonly jitter: number;
  /** Bandwidth cap in bytes a second each way; undefined for none. */
  readonly rateBytesPerS?: number;
}

export interface Link {
  /** Where a dialling node connects to reach the target. */
  readonly port: number;
  /** Drops every connection through the link and refuses new ones until restored. */
  cut(): void;
  restore(): void;
  isCut(): boolean;
  /** Bytes carried each way since start. */
  bytes(): number;
  close(): Promise<void>;
}

/**
 * One direction of a link: chunks queue in order with their arrival times and one timer delivers every chunk that is
 * due, in order, then waits for the next. A timer a chunk would reorder the stream: Node starts every timer of one
 * event-loop turn at the same cached millisecond, so a later chunk whose arrival was clamped to the one ahead of it
 * gets the shorter timeout and fires first — under load that corrupted the bytes (Noise refused them:
 * "authentication failed") and dropped connections several times a minute.
 */
function pipeDelayed(from: Socket, to: Socket, shape: LinkShape, random: () => number, count: (n: number) => void): void {
  let lineFreeAt = 0;
  let lastArrival = 0;
  const queue: { readonly chunk: Buffer; readonly arrival: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const deliver = (): void => {
    timer = undefined;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.arrival <= now) {
      const { chunk } = queue.shift()!;
      if (!to.destroyed) to.write(chunk);
    }
    schedule();
  };
  const schedule = (): void => {
    if (timer !== undefined || queue.length === 0) return;
    timer = setTimeout(deliver, Math.max(0, queue[0]!.arrival - performance.now()));
  };
  from.on('data', (chunk: Buffer) => {
    const now = performance.now();
    const sendDone = shape.rateBytesPerS === undefined ? now : Math.max(now, lineFreeAt) + (chunk.length * 1000) / shape.rateBytesPerS;
    lineFreeAt = sendDone;
    const delay = shape.delayMs * (1 + shape.jitter * (2 * random() - 1));
    const arrival = Math.max(lastArrival, sendDone + delay);
    lastArrival = arrival;
    count(chunk.length);
    queue.push({ chunk, arrival });
    schedule();
  });
  from.on('close', () => {
    if (timer !== undefined) clearTimeout(timer);
    queue.length = 0;
  });
}

export async function startLink(targetPort: number, shape: LinkShape, random: () => number = Math.random): Promise<Link> {
  const sockets = new Set<Socket>();
  let cut = false;
  let carried = 0;
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
  };
  const server: Server = createServer((inbound) => {
    track(inbound);
    if (cut) return void inbound.destroy();
    const outbound = connect(targetPort, '127.0.0.1');
    track(outbound);
    outbound.setNoDelay(true);
    inbound.setNoDelay(true);
    const count = (n: number) => void (carried += n);
    pipeDelayed(inbound, outbound, shape, random, count);
    pipeDelayed(outbound, inbound, shape, random, count);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('close', end);
    outbound.on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    isCut: () => cut,
    bytes: () => carried,
    async close() {
      cut = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
