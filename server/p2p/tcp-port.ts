/**
 * node:net sockets as the core's DuplexPort (framing 'stream'): TCP carries `u16 BE length ‖ Noise message`
 * frames with arbitrary chunk boundaries (docs/p2p-transport.md). Writes within one tick are corked into one
 * syscall — initial sync sends hundreds of small block messages per request — and close() ends the socket
 * gracefully (a courtesy `reject` still goes out) with a hard destroy after a short linger.
 */
import { connect, type Socket } from 'node:net';
import { createPortInbox, type DuplexPort } from '../../src/p2p/transport.ts';

/** After close(), a socket whose peer does not finish the TCP close is destroyed after this. */
const socketLingerMs = 2_000;
/** Dials that do not connect within this fail. */
const dialTimeoutMs = 10_000;

export function socketPort(socket: Socket): DuplexPort {
  socket.setNoDelay(true);
  const inbox = createPortInbox();
  let corked = false;
  socket.on('data', (chunk: Buffer) => inbox.deliver(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
  socket.on('close', inbox.closed);
  // 'error' is always followed by 'close'; without a listener it would crash the process.
  socket.on('error', () => undefined);
  return {
    framing: 'stream',
    send(bytes) {
      if (inbox.isClosed() || socket.destroyed || !socket.writable) return;
      if (!corked) {
        corked = true;
        socket.cork();
        process.nextTick(() => {
          corked = false;
          socket.uncork();
        });
      }
      socket.write(bytes);
    },
    onData: inbox.onData,
    onClose: inbox.onClose,
    close() {
      if (socket.destroyed) return;
      socket.end();
      setTimeout(() => socket.destroy(), socketLingerMs).unref();
      // The session learns of the close at once; the bytes already written still drain.
      inbox.closed();
    },
  };
}

/** Opens a TCP connection and resolves with it as a DuplexPort. */
export function dialTcp(host: string, port: number): Promise<DuplexPort> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => socket.destroy(new Error(`dial ${host}:${port} timed out`)), dialTimeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socketPort(socket));
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
