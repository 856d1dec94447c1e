/**
 * The tab's light node, as pages hold it: the node itself runs in a Worker (worker/light-worker.ts: the header
 * chain, its IndexedDB store, the p2p session, every header check), and the page keeps a mirror of the verified
 * chain (chain-mirror.ts) that proofs and DAG views read synchronously, and the node's last status. Nothing a page
 * does waits on a header page being decrypted, decoded, verified or stored (issue 32, docs/web.md "The light node's
 * Worker").
 */
import type { NetworkParams } from '../../src/consensus/params.ts';
import { formatInteger } from '../lib/format.ts';
import { createChainMirror } from './chain-mirror.ts';
import type { LightNode, LightNodeStatus } from './node/types.ts';
import type { FromLightWorker, ToLightWorker } from './worker/protocol.ts';

export type { LightNode, LightNodeStatus } from './node/types.ts';

/** One line for pages that show the light node beside something else (wallet, widget). */
export function describeLightNode(s: LightNodeStatus): string {
  const where = s.storage === 'memory' ? ', kept in memory' : s.storage === 'indexeddb-reader' ? ', stored by another tab' : '';
  if (s.state === 'rejected') return `light node: stopped — ${s.error?.message ?? 'a header failed verification'}`;
  const joined = s.joinedAt ? `, joined at pruning point ${s.joinedAt.slice(0, 10)}…` : '';
  return `light node: ${s.state}, ${formatInteger(s.headers)} headers verified${joined}${where}, tip height ${s.tipHeight}`;
}

/** Starts the node's Worker; resolves once it has opened its chain (what the store held is in the mirror). */
export function startLightNode(options: { params: NetworkParams; p2pUrl: string; fromGenesis?: boolean }): Promise<LightNode> {
  const worker = new Worker(new URL('./worker/light-worker.ts', import.meta.url), { type: 'module', name: 'weft-light-node' });
  const chain = createChainMirror(options.params);
  const listeners = new Set<(status: LightNodeStatus) => void>();
  let status: LightNodeStatus | undefined;
  let wake!: () => void;
  const syncedOnce = new Promise<void>((resolve) => (wake = resolve));
  const command = (message: ToLightWorker): void => worker.postMessage(message);
  return new Promise((resolve, reject) => {
    const node: LightNode = {
      chain,
      status: () => status!,
      onStatus(listener) {
        listeners.add(listener);
        listener(status!);
        return () => listeners.delete(listener);
      },
      synced: () => syncedOnce,
      retry: () => command({ type: 'retry' }),
      close: () => command({ type: 'close' }),
    };
    worker.onmessage = ({ data }: MessageEvent<FromLightWorker>) => {
      if (data.type === 'blocks') return chain.apply(data);
      if (data.type === 'failed') return (worker.terminate(), reject(new Error(`the light node did not start: ${data.message}`)));
      const first = status === undefined;
      status = data.status;
      if (status.state === 'synced') wake();
      if (first) return resolve(node);
      for (const listener of listeners) listener(status);
    };
    worker.onerror = (event) => (event.preventDefault(), reject(new Error(`the light node's Worker failed: ${event.message}`)));
    command({ type: 'start', params: options.params, p2pUrl: options.p2pUrl, ...(options.fromGenesis === undefined ? {} : { fromGenesis: options.fromGenesis }) });
  });
}
