/** Stops a node instance in order (the API last among the servers, the store last of all) and leaves the store consistent. */
import type { NodeInstance } from './node-state.ts';

export function closeNode(node: NodeInstance): Promise<void> {
  node.closing ??= (async () => {
    await node.mining.close();
    await node.mempool.close();
    node.releaseBridge();
    await node.p2p.close();
    node.late.a2aWs?.close();
    await node.api.close();
    await node.late.a2a?.close();
    clearInterval(node.pruneTokens);
    await node.alerts.close();
    await node.access.close();
    node.privacy.close();
    await node.chain.stopPruning();
    await node.chain.settled();
    await node.blockVerifiers.close();
    await node.store.flush();
    await node.store.close();
    node.logger.info('node stopped');
  })();
  return node.closing;
}
