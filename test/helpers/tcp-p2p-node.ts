// A p2p node in the test's own process listening on TCP (127.0.0.1, port 0): for tests where real node processes
// dial it, or it answers as a peer with chosen fast-sync ports.
import { createServer, type Server } from 'node:net';
import { createP2pNode, type P2pNode, type P2pNodeOptions } from '../../src/p2p/p2p-node.ts';
import { dialTcp, socketPort } from '../../server/p2p/tcp-port.ts';

export interface TcpP2pNode {
  readonly node: P2pNode;
  readonly port: number;
  close(): Promise<void>;
}

export async function startTcpP2pNode(options: Omit<P2pNodeOptions, 'listenPort' | 'dial'>): Promise<TcpP2pNode> {
  const server: Server = createServer({ noDelay: true });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const node = createP2pNode({ ...options, listenPort: port, dial: dialTcp });
  server.on('connection', (socket) => node.accept(socketPort(socket), { host: '127.0.0.1', port: socket.remotePort ?? 0, transport: 'tcp' }));
  node.start();
  return {
    node,
    port,
    async close() {
      await node.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
