/**
 * The p2p bridge for browsers: the same protocol over WebSocket at ws://host:8081/p2p (wss with TLS). Each binary
 * WebSocket message carries exactly one Noise message (DuplexPort framing 'message', no length prefix); a text
 * message is a protocol error (close 1003). Nothing is bridged at the application level: a browser is simply a
 * peer (transport 'ws'), counted against its own inbound cap.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { noiseMessageBytesMax } from '../../src/p2p/noise/cipher-state.ts';
import type { P2pNode } from '../../src/p2p/p2p-node.ts';
import { createPortInbox, type DuplexPort } from '../../src/p2p/transport.ts';

export const p2pBridgePath = '/p2p';
/** RFC 6455 §7.4.1: the endpoint received a type of data it cannot accept. */
const unsupportedDataCloseCode = 1003;

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** Wraps an open WebSocket (server or client side) as a message-framed DuplexPort. */
export function webSocketPort(ws: WebSocket): DuplexPort {
  const inbox = createPortInbox();
  ws.binaryType = 'nodebuffer';
  ws.on('message', (data, isBinary) => {
    if (!isBinary) {
      ws.close(unsupportedDataCloseCode, 'binary messages only');
      return inbox.closed();
    }
    inbox.deliver(toBytes(data));
  });
  ws.on('close', inbox.closed);
  ws.on('error', () => undefined);
  return {
    framing: 'message',
    send(bytes) {
      if (!inbox.isClosed() && ws.readyState === ws.OPEN) ws.send(bytes, { binary: true });
    },
    onData: inbox.onData,
    onClose: inbox.onClose,
    close() {
      ws.close();
      inbox.closed();
    },
  };
}

/** Hands one accepted bridge WebSocket to the p2p node as an inbound 'ws' peer. */
function handleBridgeSocket(ws: WebSocket, node: P2pNode, remoteHost: string): void {
  node.accept(webSocketPort(ws), { host: remoteHost, port: 0, transport: 'ws' });
}

/** An upgrade handler for `/p2p` (register it with the WebSocket server's registerUpgradeHandler). */
export function createBridgeUpgradeHandler(node: P2pNode): { handle: (request: IncomingMessage, socket: Duplex, head: Buffer) => void; close: () => void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: noiseMessageBytesMax, perMessageDeflate: false });
  return {
    handle(request, socket, head) {
      wss.handleUpgrade(request, socket, head, (ws) => handleBridgeSocket(ws, node, request.socket.remoteAddress ?? 'unknown'));
    },
    close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
