// A fake p2p bridge for the light node's e2e tests: a WebSocket server speaking the real protocol (Noise XX
// responder, version/verack, getheaders → headers from an in-memory regtest chain) that edits one header before
// sending it — the tab must refuse that header and show why.
import { WebSocketServer } from 'ws';
import type { AddressInfo } from 'node:net';
import type { BlockHeader } from '../../src/codec/header.ts';
import { collectHeaders } from '../../src/p2p/locator.ts';
import { decodeMessage, encodeMessage } from '../../src/p2p/messages.ts';
import { p2pProtocolVersion } from '../../src/p2p/limits.ts';
import { openSecureSession } from '../../src/p2p/secure-session.ts';
import { webSocketPort } from '../../server/p2p/ws-bridge.ts';
import { newStaticKey, randomBytes, realTimer, versionOfChain } from '../../test/helpers/p2p-harness.ts';
import { chainWith } from '../../test/helpers/p2p-memory-net.ts';
import { regtestBlocks } from '../../test/helpers/regtest-dag.ts';

export interface FakeBridge {
  readonly url: string;
  close(): Promise<void>;
}

/** Serves `blocks` regtest headers; the header at position `tamperAt` of the served order goes out edited. */
export async function startFakeBridge(blocks: number, tamperAt: number, edit: (h: BlockHeader) => BlockHeader): Promise<FakeBridge> {
  const chain = await chainWith(await regtestBlocks(blocks));
  const staticKey = newStaticKey();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/p2p' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  wss.on('connection', (ws) => {
    void (async () => {
      const session = await openSecureSession({ port: webSocketPort(ws), role: 'responder', staticKey, network: 'regtest', protocolVersion: p2pProtocolVersion, randomBytes, timer: realTimer });
      let served = 0;
      session.onMessage((bytes) => {
        const m = decodeMessage(bytes);
        if (m.type === 'version') {
          session.send(encodeMessage(versionOfChain(chain)));
          session.send(encodeMessage({ type: 'verack' }));
        } else if (m.type === 'getheaders') {
          const page = collectHeaders(chain, m.locator, m.stop);
          const headers = page.headers.map((h, i) => (served + i === tamperAt ? edit(h) : h));
          served += headers.length;
          session.send(encodeMessage({ type: 'headers', headers, more: page.more }));
        }
      });
    })().catch(() => ws.close());
  });
  const port = (wss.address() as AddressInfo).port;
  return { url: `ws://127.0.0.1:${port}/p2p`, close: () => new Promise((resolve) => wss.close(() => resolve())) };
}
