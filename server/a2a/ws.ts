/**
 * A2A over WebSocket at `/a2a/ws` (and `/v1/a2a/ws`) on the HTTP port (agent seed, "HTTP endpoints"). The upgrade
 * request carries the service parameters and credentials (headers, or `?A2A-Version=` for browsers, which cannot
 * set headers on a WebSocket); each text frame is then one JSON-RPC 2.0 request, answered by one response. A
 * streaming method answers with one response per StreamResponse (same id) and, when the stream closes, the
 * notification {"jsonrpc":"2.0","method":"StreamClosed","params":{"id":<request id>}}. Closing the socket closes its
 * streams; the tasks run on.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { A2aError, toA2aError } from '../../src/a2a/errors.ts';
import type { CallContext } from '../../src/a2a/handler/state.ts';
import { a2aRequestBytesMax } from '../../src/a2a/limits.ts';
import type { Subscription } from '../../src/a2a/stream-hub.ts';
import { dispatch, envelopeId, parseEnvelope, rpcError, rpcResult } from './dispatch.ts';
import { callContextOf } from './http.ts';
import type { A2aService } from './service.ts';

const a2aWsPaths: readonly string[] = ['/a2a/ws', '/v1/a2a/ws'];

function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { method: 'GET', headers });
}

function reject(socket: Duplex, error: A2aError): void {
  const status = error.row.http === 401 || error.row.http === 403 ? error.row.http : 400;
  const body = JSON.stringify(rpcError(null, error));
  socket.end(`HTTP/1.1 ${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Bad Request'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

function serve(ws: WebSocket, service: A2aService, ctx: CallContext): void {
  const streams = new Set<Subscription>();
  const send = (value: unknown) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(value));
  ws.on('message', async (data, isBinary) => {
    if (isBinary) return send(rpcError(null, new A2aError('invalid_request', 'expected text frames')));
    let envelope;
    try {
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        throw new A2aError('parse_error', 'invalid JSON payload');
      }
      envelope = parseEnvelope(message);
    } catch (error) {
      return send(rpcError(envelopeId(error), toA2aError(error)));
    }
    const outcome = await dispatch(service.handler, envelope, ctx);
    if (outcome.kind === 'none') return;
    if (outcome.kind === 'error') return send(rpcError(outcome.id, outcome.error));
    if (outcome.kind === 'result') return send(rpcResult(outcome.id, outcome.result));
    streams.add(outcome.subscription);
    for await (const event of outcome.subscription) send(rpcResult(outcome.id, event));
    streams.delete(outcome.subscription);
    send({ jsonrpc: '2.0', method: 'StreamClosed', params: { id: outcome.id } });
  });
  ws.on('close', () => {
    for (const s of streams) s.close();
  });
}

/** Serves the A2A WebSocket on `server`'s upgrade requests for a2aWsPaths; other paths are left alone. */
export function attachA2aWebSocket(server: Server, service: A2aService): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: a2aRequestBytesMax });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (!a2aWsPaths.includes(path)) return;
    callContextOf(service, toRequest(req), new Uint8Array(0)).then(
      (ctx) => wss.handleUpgrade(req, socket, head, (ws) => serve(ws, service, ctx)),
      (error: unknown) => reject(socket, toA2aError(error)),
    );
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
