/**
 * /health while a node joins by proof (fast-join.ts): the API cannot open before the chain does, and a mainnet join
 * downloads a state for minutes, so a probe of the RPC port would see nothing and take the node for dead. This small
 * server holds the port meanwhile: `GET /health` answers 503 `{status: "joining", ready: false, join: {…}}` with the
 * join's phase, peer, proven pruning point and state progress; anything else answers 503 with a message saying the
 * API opens once the join is done. It is closed before the API listens on the same port.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NodeConfig } from '../config.ts';
import type { Logger } from '../logger.ts';
import type { FastJoinProgress } from './fast-join.ts';

export interface JoinHealth {
  readonly port: number;
  update(progress: FastJoinProgress): void;
  close(): Promise<void>;
}

export async function startJoinHealth(config: NodeConfig, logger: Logger, version: string): Promise<JoinHealth> {
  let progress: FastJoinProgress | undefined;
  const body = () => ({
    status: 'joining',
    ready: false,
    network: config.network,
    version,
    join: progress === undefined
      ? { phase: 'peers' }
      : {
          phase: progress.phase,
          peer: progress.peer,
          pruning_point: progress.pruningPoint ?? null,
          state_entries: progress.stateEntries ?? null,
          state_chunks: progress.stateChunks ?? null,
        },
  });
  const server: Server = createServer((req, res) => {
    const health = req.method === 'GET' && new URL(req.url ?? '/', 'http://x').pathname === '/health';
    const json = health ? body() : { status: 'joining', message: 'the node is joining the network by proof; the API opens once the join is done (GET /health shows its progress)' };
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5' }).end(JSON.stringify(json));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.rpcPort, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ event: 'join_health_listening', url: `http://${config.host}:${port}/health`, port }, 'joining by proof: /health answers meanwhile');
  return {
    port,
    update: (next) => void (progress = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
