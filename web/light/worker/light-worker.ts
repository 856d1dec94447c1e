/**
 * The tab's light node, in a Worker: its header chain (src/light/light-chain.ts) in IndexedDB, synced and kept live
 * over the node's p2p bridge (src/light/light-sync.ts on a WebSocket DuplexPort). Decrypting the session's frames,
 * decoding header pages, verifying them and storing them are seconds of work on a phone; here none of it blocks the
 * page (issue 32, docs/web.md "The light node's Worker"). The page gets every verified block for its mirror and every
 * status change (protocol.ts).
 *
 * It reconnects after the session drops, except when the peer sent a header that failed verification — that is
 * shown and the node stays stopped until the user retries (a lying peer must not be retried in a loop).
 */
import type { NetworkParams } from '../../../src/consensus/params.ts';
import { openLightChain } from '../../../src/light/light-chain.ts';
import { createMemoryHeaderStore, type LightHeaderStore } from '../../../src/light/light-store.ts';
import { x25519Dh } from '../../../src/p2p/noise/suites.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { openIdbHeaderStore } from '../idb-header-store.ts';
import { browserRandomBytes, connectLightNode } from '../node/connect.ts';
import { createLightNodeRuntime, nodeStatus, type LightNodeRuntime } from '../node/state.ts';
import type { LightNodeStatus } from '../node/types.ts';
import { installWasmBlake3 } from '../wasm-blake3.ts';
import { publishingChain } from './publish-chain.ts';
import type { FromLightWorker, ToLightWorker } from './protocol.ts';

/** The Worker's global scope, typed for what this file uses (the program's lib is the page's DOM). */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToLightWorker>) => void) | null;
  postMessage(message: FromLightWorker): void;
  close(): void;
};

const send = (message: FromLightWorker): void => scope.postMessage(message);

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

/**
 * A fresh tab on a version 2 network joins at the node's proven pruning point (proof and trusted data over the same
 * session, src/light/light-sync.ts); on a version 1 network it syncs from genesis.
 */
async function start(options: { params: NetworkParams; p2pUrl: string; fromGenesis?: boolean }): Promise<LightNodeRuntime> {
  const { params } = options;
  const hashBackend = await installWasmBlake3();
  const { store, storage } = await openHeaderStore(params.name);
  const chain = publishingChain(await openLightChain({ params, store, clock: systemClock }), send);
  const staticKey = x25519Dh.generateKeyPair(browserRandomBytes);
  const node = createLightNodeRuntime({ params, p2pUrl: options.p2pUrl, fromGenesis: options.fromGenesis, chain, staticKey, hashBackend, storage });
  node.listeners.add((status) => send({ type: 'status', status }));
  send({ type: 'status', status: nodeStatus(node) });
  void connectLightNode(node);
  return node;
}

let running: Promise<LightNodeRuntime> | undefined;

scope.onmessage = ({ data }: MessageEvent<ToLightWorker>) => {
  if (data.type === 'start') {
    running ??= start(data);
    running.catch((error: unknown) => send({ type: 'failed', message: String((error as Error)?.message ?? error) }));
    return;
  }
  void running?.then((node) => {
    if (data.type === 'retry' && node.state === 'rejected') {
      node.error = null;
      void connectLightNode(node);
    } else if (data.type === 'close') {
      node.stopped = true;
      node.session?.close();
      scope.close();
    }
  });
};
