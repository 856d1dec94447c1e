/**
 * A browser WebSocket as the p2p layer's DuplexPort (src/p2p/transport.ts) with framing 'message': one Noise
 * message per binary WebSocket message, exactly what the node's /p2p bridge speaks (server/p2p/ws-bridge.ts).
 */
import { createPortInbox, type DuplexPort } from '../../src/p2p/transport.ts';

/** Opens `url` and resolves with the port once the socket is open. */
export function openWebSocketPort(url: string): Promise<DuplexPort> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    const inbox = createPortInbox();
    ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === 'string') return ws.close(1003, 'binary messages only');
      inbox.deliver(new Uint8Array(event.data));
    };
    ws.onerror = () => reject(new Error(`cannot reach the p2p bridge at ${url}`));
    ws.onclose = inbox.closed;
    ws.onopen = () =>
      resolve({
        framing: 'message',
        send(bytes) {
          if (!inbox.isClosed() && ws.readyState === WebSocket.OPEN) ws.send(bytes);
        },
        onData: inbox.onData,
        onClose: inbox.onClose,
        close() {
          ws.close();
          inbox.closed();
        },
      });
  });
}
