/**
 * The tab's light node: its own header chain (src/light/light-chain.ts) in IndexedDB, synced and kept live over
 * the node's p2p bridge (src/light/light-sync.ts on a WebSocket DuplexPort). It reconnects after the session
 * drops, except when the peer sent a header that failed verification — that is shown and the node stays
 * stopped until the user retries (a lying peer must not be retried in a loop).
 *
 * The node's state is one LightNodeRuntime (node/state.ts); connecting and what follows a session's end is
 * node/connect.ts.
 */
import type { NetworkParams } from '../../src/consensus/params.ts';
import { openLightChain } from '../../src/light/light-chain.ts';
import { createMemoryHeaderStore, type LightHeaderStore } from '../../src/light/light-store.ts';
import { x25519Dh } from '../../src/p2p/noise/suites.ts';
import { systemClock } from '../../src/util/clock.ts';
import { formatInteger } from '../lib/format.ts';
import { openIdbHeaderStore } from './idb-header-store.ts';
import { browserRandomBytes, connectLightNode } from './node/connect.ts';
import { createLightNodeRuntime, nodeStatus } from './node/state.ts';
import type { LightNode, LightNodeStatus } from './node/types.ts';
import { installWasmBlake3 } from './wasm-blake3.ts';

export type { LightNode, LightNodeStatus } from './node/types.ts';

/**
 * IndexedDB, or memory when the browser refuses it — Chromium blocks storage in third-party frames in some profiles
 * (the widget's iframe, docs/widget.md): the light node then verifies from genesis on every load, which is slower
 * but no less safe.
 */
async function openHeaderStore(network: string): Promise<{ store: LightHeaderStore; storage: LightNodeStatus['storage'] }> {
  try {
    const { store, role } = await openIdbHeaderStore(network);
    return { store, storage: role === 'writer' ? 'indexeddb' : 'indexeddb-reader' };
  } catch {
    return { store: createMemoryHeaderStore(), storage: 'memory' };
  }
}

/** One line for pages that show the light node beside something else (wallet, widget). */
export function describeLightNode(s: LightNodeStatus): string {
  const where = s.storage === 'memory' ? ', kept in memory' : s.storage === 'indexeddb-reader' ? ', stored by another tab' : '';
  if (s.state === 'rejected') return `light node: stopped — ${s.error?.message ?? 'a header failed verification'}`;
  const joined = s.joinedAt ? `, joined at pruning point ${s.joinedAt.slice(0, 10)}…` : '';
  return `light node: ${s.state}, ${formatInteger(s.headers)} headers verified${joined}${where}, tip height ${s.tipHeight}`;
}

/**
 * A fresh tab on a version 2 network joins at the node's proven pruning point (proof and trusted data over the same
 * session, src/light/light-sync.ts); on a version 1 network it syncs from genesis.
 */
export async function startLightNode(options: { params: NetworkParams; p2pUrl: string; fromGenesis?: boolean }): Promise<LightNode> {
  const { params } = options;
  const hashBackend = await installWasmBlake3();
  const { store, storage } = await openHeaderStore(params.name);
  const chain = await openLightChain({ params, store, clock: systemClock });
  const staticKey = x25519Dh.generateKeyPair(browserRandomBytes);
  const node = createLightNodeRuntime({ params, p2pUrl: options.p2pUrl, fromGenesis: options.fromGenesis, chain, staticKey, hashBackend, storage });
  void connectLightNode(node);
  return {
    chain,
    status: () => nodeStatus(node),
    onStatus(listener) {
      node.listeners.add(listener);
      listener(nodeStatus(node));
      return () => node.listeners.delete(listener);
    },
    synced: () => node.syncedOnce,
    retry() {
      if (node.state !== 'rejected') return;
      node.error = null;
      void connectLightNode(node);
    },
    close() {
      node.stopped = true;
      node.session?.close();
    },
  };
}
