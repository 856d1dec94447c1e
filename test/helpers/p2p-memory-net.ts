// In-process p2p networks over in-memory port pairs: real chains (memory stores), real p2p nodes, real Noise
// sessions, no sockets — for fast tests of sync, relay and misbehaviour handling.
import type { Chain } from '../../src/chain/chain.ts';
import { openLedgerChain } from '../../src/state/ledger.ts';
import type { Block } from '../../src/codec/block.ts';
import { regtestParams } from '../../src/consensus/params.ts';
import { createP2pNode, type P2pNode, type P2pNodeOptions } from '../../src/p2p/p2p-node.ts';
import { createMemoryPortPair, type DuplexPort } from '../../src/p2p/transport.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import { systemClock } from '../../src/util/clock.ts';
import { newStaticKey, randomBytes, realTimer } from './p2p-harness.ts';

export interface MemoryNet {
  /** A node listening on a fresh fake port; `blocks` are imported into its chain first (a regtest chain unless options name one). */
  addNode(blocks?: readonly Block[], options?: Partial<P2pNodeOptions>): Promise<{ node: P2pNode; chain: Chain; port: number }>;
  /** A raw port into the node listening on `port` (for harness peers). */
  open(port: number): DuplexPort;
  closeAll(): Promise<void>;
}

export async function chainWith(blocks: readonly Block[] = []): Promise<Chain> {
  const { chain } = await openLedgerChain({ params: regtestParams, store: createMemoryStore(), clock: systemClock });
  for (const block of blocks) void chain.addBlock(block);
  await chain.settled();
  if (chain.blockCount() !== blocks.length + 1) throw new Error('fixture blocks did not all import');
  return chain;
}

export function createMemoryNet(): MemoryNet {
  const listeners = new Map<number, P2pNode>();
  const nodes: P2pNode[] = [];
  let nextPort = 20_000;
  const open = (port: number): DuplexPort => {
    const target = listeners.get(port);
    if (!target) throw new Error(`nothing listens on ${port}`);
    const [mine, theirs] = createMemoryPortPair({ schedule: (task) => setImmediate(task) });
    target.accept(theirs, { host: '127.0.0.1', port: 0, transport: 'tcp' });
    return mine;
  };
  return {
    async addNode(blocks = [], options = {}) {
      const chain = options.chain ?? (await chainWith(blocks));
      const port = nextPort++;
      const node = createP2pNode({
        chain, staticKey: newStaticKey(), clock: systemClock, timer: realTimer, randomBytes, userAgent: `/memnet:${port}/`,
        listenPort: port, dial: async (_host, p) => open(p), ...options,
      });
      listeners.set(port, node);
      nodes.push(node);
      node.start();
      return { node, chain, port };
    },
    open,
    async closeAll() {
      for (const node of nodes) await node.close();
    },
  };
}

/** Polls `predicate` every 20 ms until it holds or `timeoutMs` passes. */
export async function until(predicate: () => boolean, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
