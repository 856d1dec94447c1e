// A man in the middle on the p2p bridge: it ends the tab's Noise session itself, opens its own to the real node's
// /p2p, and relays every message both ways — except the pruning-point proof, whose first header it edits (nonce + 1:
// the header's hash, and so every link to it and its PoW level, change). The tab must refuse that proof and show why.
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { decodeMessage, encodeMessage } from '../../src/p2p/messages.ts';
import { p2pProtocolVersion } from '../../src/p2p/limits.ts';
import { decodePruningProof, encodePruningProof } from '../../src/p2p/pruning-proof-codec.ts';
import { openSecureSession, type SecureSession } from '../../src/p2p/secure-session.ts';
import { webSocketPort } from '../../server/p2p/ws-bridge.ts';
import { newStaticKey, randomBytes, realTimer } from '../../test/helpers/p2p-harness.ts';

export interface ProofTamperBridge {
  readonly url: string;
  /** Proof pages edited so far. */
  tampered(): number;
  close(): Promise<void>;
}

/** Relays between a tab and the node bridge at `nodeP2pUrl` (ws://…/p2p) on `network`, editing the proof. */
export async function startProofTamperBridge(nodeP2pUrl: string, network: string): Promise<ProofTamperBridge> {
  const staticKey = newStaticKey();
  let edits = 0;
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/p2p' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const session = (ws: WebSocket, role: 'initiator' | 'responder'): Promise<SecureSession> =>
    openSecureSession({ port: webSocketPort(ws), role, staticKey, network, protocolVersion: p2pProtocolVersion, randomBytes, timer: realTimer });
  const tamper = (bytes: Uint8Array): Uint8Array => {
    const m = decodeMessage(bytes);
    // The regtest proof fits one page; a longer one would need its pages gathered first.
    if (m.type !== 'pruningproof' || m.offset !== 0 || m.total !== m.page.length) return bytes;
    const proof = decodePruningProof(m.page);
    const [first, ...rest] = proof.levels[0]!;
    const page = encodePruningProof({ levels: [[{ ...first!, nonce: first!.nonce + 1n }, ...rest], ...proof.levels.slice(1)] });
    edits++;
    return encodeMessage({ ...m, total: page.length, page });
  };
  wss.on('connection', (tabSocket) => {
    void (async () => {
      const tab = await session(tabSocket, 'responder');
      const nodeSocket = new WebSocket(nodeP2pUrl);
      await new Promise<void>((resolve, reject) => { nodeSocket.once('open', () => resolve()); nodeSocket.once('error', reject); });
      const node = await session(nodeSocket, 'initiator');
      tab.onMessage((bytes) => node.send(bytes));
      node.onMessage((bytes) => { if (!tab.isClosed()) tab.send(tamper(bytes)); });
      tab.onClose(() => node.close());
      node.onClose(() => tab.close());
    })().catch(() => tabSocket.close());
  });
  const port = (wss.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/p2p`,
    tampered: () => edits,
    close: () => new Promise((resolve) => { for (const c of wss.clients) c.terminate(); wss.close(() => resolve()); }),
  };
}
