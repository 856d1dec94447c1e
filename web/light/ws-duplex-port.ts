/**
 * A browser WebSocket as the p2p layer's DuplexPort (src/p2p/transport.ts) with framing 'message': one Noise
 * message per binary WebSocket message, exactly what the node's /p2p bridge speaks (server/p2p/ws-bridge.ts).
 */
import type { DuplexPort } from '../../src/p2p/transport.ts';

/** Opens `url` and resolves with the port once the socket is open. */
export function openWebSocketPort(url: string): Promise<DuplexPort> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    let dataCallback: ((bytes: Uint8Array) => void) | undefined;
    let closeCallback: (() => void) | undefined;
    const inbox: Uint8Array[] = [];
    let closed = false;
    const onClosed = (): void => {
      if (closed) return;
      closed = true;
      closeCallback?.();
    };
    ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === 'string') return ws.close(1003, 'binary messages only');
      const bytes = new Uint8Array(event.data);
      if (dataCallback) dataCallback(bytes);
      else inbox.push(bytes);
    };
    ws.onerror = () => reject(new Error(`cannot reach the p2p bridge at ${url}`));
    ws.onclose = onClosed;
    ws.onopen = () =>
      resolve({
        framing: 'message',
        send(bytes) {
          if (!closed && ws.readyState === WebSocket.OPEN) ws.send(bytes);
        },
        onData(callback) {
          dataCallback = callback;
          for (const bytes of inbox.splice(0)) callback(bytes);
        },
        onClose(callback) {
          closeCallback = callback;
          if (closed) callback();
        },
        close() {
          ws.close();
          onClosed();
        },
      });
  });
}
