/**
 * The A2A endpoint on the node's HTTP app (port 8080), every path also under /v1 (agent seed, "HTTP endpoints"):
 *
 *   GET  /.well-known/agent-card.json     the Agent Card (public; Cache-Control, ETag, Last-Modified; If-None-Match or If-Modified-Since → 304)
 *   POST /a2a                             JSON-RPC 2.0 (PascalCase methods; streaming methods answer with SSE)
 *   HTTP+JSON (A2A 1.0 §11):  POST /message:send · POST /message:stream (SSE) · GET /tasks · GET /tasks/{id}
 *     POST /tasks/{id}:cancel · GET|POST /tasks/{id}:subscribe (SSE) · POST|GET /tasks/{id}/pushNotificationConfigs
 *     GET|DELETE /tasks/{id}/pushNotificationConfigs/{configId} · GET /extendedAgentCard
 *
 * Each request: size bound (the one body-limit middleware) → A2A-Version / A2A-Extensions negotiation →
 * authentication (on a node: its identity, authenticated once; src/a2a/auth.ts) → the shared handler.
 */
import type { Context, Hono } from 'hono';
import { authenticate, type AuthInput, type NodeCaller } from '../../src/a2a/auth.ts';
import { A2aError, invalidParams, restErrorBody, toA2aError } from '../../src/a2a/errors.ts';
import type { A2aHandler } from '../../src/a2a/handler.ts';
import type { CallContext } from '../../src/a2a/handler/state.ts';
import { a2aCardMaxAgeSec, a2aRequestBytesMax } from '../../src/a2a/limits.ts';
import { negotiate } from '../../src/a2a/negotiate.ts';
import type { Subscription } from '../../src/a2a/stream-hub.ts';
import type { StreamResponse } from '../../src/a2a/types.ts';
import { authOf } from '../auth/authenticate.ts';
import { requestBodyLimit } from '../auth/request-bounds.ts';
import { dispatch, envelopeId, parseEnvelope, rpcError, rpcResult, type JsonRpcId } from './dispatch.ts';
import type { A2aService } from './service.ts';

const a2aJsonRpcPath = '/a2a';
const prefixes = ['', '/v1'] as const;
const enc = new TextEncoder();

function cookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) out.set(pair.slice(0, eq).trim(), decodeURIComponent(pair.slice(eq + 1).trim()));
  }
  return out;
}

function authInputOf(req: Request, body: Uint8Array, tlsPeerFingerprint?: string): AuthInput {
  const url = new URL(req.url);
  const jar = cookies(req.headers.get('cookie') ?? undefined);
  return {
    method: req.method,
    path: url.pathname + url.search,
    body,
    header: (name) => req.headers.get(name) ?? undefined,
    query: (name) => url.searchParams.get(name) ?? undefined,
    cookie: (name) => jar.get(name),
    ...(tlsPeerFingerprint ? { tlsPeerFingerprint } : {}),
  };
}

/** The body, already bounded by the body-limit middleware (a2aRequestBytesMax, 413). */
async function readBody(req: Request): Promise<Uint8Array> {
  return new Uint8Array(await req.arrayBuffer());
}

/**
 * Version and extension negotiation, then authentication: the CallContext of one HTTP request. `node` is the node's
 * own authentication of the request where the node serves A2A (authenticated once: A2A reads it).
 */
export async function callContextOf(service: A2aService, req: Request, body: Uint8Array, node?: NodeCaller): Promise<CallContext> {
  const url = new URL(req.url);
  const version = req.headers.get('a2a-version') ?? url.searchParams.get('A2A-Version') ?? undefined;
  const negotiated = negotiate(service.card, version, req.headers.get('a2a-extensions') ?? undefined, service.lenientVersion);
  const principal = await authenticate(authInputOf(req, body), service.auth, node);
  return { principal, extensions: negotiated.extensions };
}

function sseResponse(subscription: Subscription, frame: (event: StreamResponse) => unknown, headers: Record<string, string>): Response {
  const iterator = subscription[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(enc.encode(`data: ${JSON.stringify(frame(next.value))}\n\n`));
    },
    // The client went away: only this stream ends; the task runs on (A2A 1.0 §3.1.6).
    cancel() {
      subscription.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers } });
}

const extensionHeaders = (ctx: CallContext | undefined): Record<string, string> => (ctx && ctx.extensions.length > 0 ? { 'a2a-extensions': ctx.extensions.join(',') } : {});

function authFailure(error: A2aError): boolean {
  return error.row.http === 401 || error.row.http === 403;
}

async function jsonRpc(service: A2aService, req: Request, node: NodeCaller | undefined): Promise<Response> {
  let id: JsonRpcId = null;
  let ctx: CallContext | undefined;
  try {
    const body = await readBody(req);
    let message: unknown;
    try {
      message = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw new A2aError('parse_error', 'invalid JSON payload');
    }
    const envelope = parseEnvelope(message);
    id = envelope.id;
    ctx = await callContextOf(service, req, body, node);
    const outcome = await dispatch(service.handler, envelope, ctx);
    if (outcome.kind === 'none') return new Response(null, { status: 204 });
    if (outcome.kind === 'error') throw outcome.error;
    if (outcome.kind === 'stream') return sseResponse(outcome.subscription, (event) => rpcResult(outcome.id, event), extensionHeaders(ctx));
    return Response.json(rpcResult(outcome.id, outcome.result), { headers: extensionHeaders(ctx) });
  } catch (thrown) {
    const error = toA2aError(thrown);
    const rpcId = id ?? envelopeId(thrown);
    const status = authFailure(error) ? error.row.http : 200;
    const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer realm="a2a"' } : extensionHeaders(ctx);
    return Response.json(rpcError(rpcId, error), { status, headers });
  }
}

function restContentType(req: Request): string {
  return (req.headers.get('accept') ?? '').includes('application/a2a+json') ? 'application/a2a+json' : 'application/json';
}

function restError(thrown: unknown): Response {
  const error = toA2aError(thrown);
  const { status, body } = restErrorBody(error);
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer realm="a2a"' } : {};
  return Response.json(body, { status, headers });
}

type RestOp = (h: A2aHandler, ctx: CallContext, body: unknown, c: Context) => Promise<unknown>;

function intParam(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}

/**
 * A query parameter by its ProtoJSON name (`historyLength`) or its proto name (`history_length`), as the JSON bodies
 * accept both (src/a2a/protojson.ts); both given with different values → -32602 naming the proto name.
 */
function queryParam(c: Context, name: string): string | undefined {
  const protoName = name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
  const json = c.req.query(name);
  const proto = c.req.query(protoName);
  if (json !== undefined && proto !== undefined && json !== proto) throw invalidParams(`${protoName}: the proto name of ${name}, given twice with different values`, protoName);
  return json ?? proto;
}

function boolParam(value: string | undefined): boolean | string | undefined {
  return value === 'true' ? true : value === 'false' ? false : value;
}

function restRoute(service: A2aService, op: RestOp, stream: boolean) {
  return async (c: Context): Promise<Response> => {
    let ctx: CallContext | undefined;
    try {
      const bytes = c.req.method === 'GET' || c.req.method === 'DELETE' ? new Uint8Array(0) : await readBody(c.req.raw);
      let body: unknown = {};
      if (bytes.length > 0) {
        try {
          body = JSON.parse(new TextDecoder().decode(bytes)) ?? {};
        } catch {
          throw new A2aError('parse_error', 'invalid JSON payload');
        }
      }
      ctx = await callContextOf(service, c.req.raw, bytes, authOf(c));
      const value = await op(service.handler, ctx, body, c);
      if (stream) return sseResponse(value as Subscription, (event) => event, extensionHeaders(ctx));
      return new Response(JSON.stringify(value), { headers: { 'content-type': restContentType(c.req.raw), ...extensionHeaders(ctx) } });
    } catch (error) {
      const response = restError(error);
      for (const [k, v] of Object.entries(extensionHeaders(ctx))) response.headers.set(k, v);
      return response;
    }
  };
}

const withObject = (body: unknown, extra: Record<string, unknown>) => ({ ...(typeof body === 'object' && body !== null ? body : {}), ...extra });

/** `{id}:action` → [id, action]; ids never contain ':' after the last one we split at. */
function splitAction(value: string): [string, string] {
  const colon = value.lastIndexOf(':');
  return colon === -1 ? [value, ''] : [value.slice(0, colon), value.slice(colon + 1)];
}

function mountRest(app: Hono, service: A2aService, base: string): void {
  const route = (op: RestOp, stream = false) => restRoute(service, op, stream);
  app.post(`${base}/message:send`, route((h, ctx, body) => h.sendMessage(body, ctx)));
  app.post(`${base}/message:stream`, route((h, ctx, body) => h.sendStreamingMessage(body, ctx), true));
  app.get(`${base}/extendedAgentCard`, route((h, ctx) => h.getExtendedAgentCard({}, ctx)));
  app.get(
    `${base}/tasks`,
    route((h, ctx, _b, c) =>
      h.listTasks(
        Object.fromEntries(
          Object.entries({
            contextId: queryParam(c, 'contextId'),
            status: queryParam(c, 'status'),
            pageSize: intParam(queryParam(c, 'pageSize')),
            pageToken: queryParam(c, 'pageToken'),
            historyLength: intParam(queryParam(c, 'historyLength')),
            statusTimestampAfter: queryParam(c, 'statusTimestampAfter'),
            includeArtifacts: boolParam(queryParam(c, 'includeArtifacts')),
          }).filter(([, v]) => v !== undefined),
        ),
        ctx,
      ),
    ),
  );
  app.on(['GET', 'POST'], `${base}/tasks/:idAction`, async (c) => {
    const [id, action] = splitAction(c.req.param('idAction'));
    const method = c.req.method;
    if (action === '' && method === 'GET') {
      return route((h, ctx) => {
        const historyLength = intParam(queryParam(c, 'historyLength'));
        return h.getTask(historyLength === undefined ? { id } : { id, historyLength }, ctx);
      })(c);
    }
    if (action === 'cancel' && method === 'POST') return route((h, ctx, body) => h.cancelTask(withObject(body, { id }), ctx))(c);
    // The proto says GET, the prose says POST (A2A#1574): both are served.
    if (action === 'subscribe') return route((h, ctx) => h.subscribeToTask({ id }, ctx), true)(c);
    return restError(new A2aError('method_not_found', `${method} ${c.req.path}: no such operation`));
  });
  const configs = `${base}/tasks/:taskId/pushNotificationConfigs`;
  app.post(configs, route((h, ctx, body, c) => h.createTaskPushNotificationConfig(withObject(body, { taskId: c.req.param('taskId') }), ctx)));
  app.get(
    configs,
    route((h, ctx, _b, c) => {
      const pageSize = intParam(queryParam(c, 'pageSize'));
      const pageToken = queryParam(c, 'pageToken');
      return h.listTaskPushNotificationConfigs({ taskId: c.req.param('taskId'), ...(pageSize === undefined ? {} : { pageSize }), ...(pageToken ? { pageToken } : {}) }, ctx);
    }),
  );
  app.get(`${configs}/:id`, route((h, ctx, _b, c) => h.getTaskPushNotificationConfig({ taskId: c.req.param('taskId'), id: c.req.param('id') }, ctx)));
  app.delete(`${configs}/:id`, route((h, ctx, _b, c) => h.deleteTaskPushNotificationConfig({ taskId: c.req.param('taskId'), id: c.req.param('id') }, ctx)));
}

const tooLarge = (limitBytes: number) => new A2aError('payload_too_large', `request body: more than ${limitBytes} bytes`);
const jsonRpcLimit = requestBodyLimit(a2aRequestBytesMax, () => Response.json(rpcError(null, tooLarge(a2aRequestBytesMax)), { status: 413 }));
const restLimit = requestBodyLimit(a2aRequestBytesMax, () => restError(tooLarge(a2aRequestBytesMax)));

/**
 * RFC 9110 §13.2.2: If-None-Match decides when present (a list of tags, or `*`); only without it does
 * If-Modified-Since, a valid HTTP date not before the card's Last-Modified, answer 304.
 */
function cardNotModified(ifNoneMatch: string | undefined, ifModifiedSince: string | undefined, etag: string, modifiedMs: number): boolean {
  if (ifNoneMatch !== undefined) return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && modifiedMs <= since;
}

/** Mounts the agent card, the JSON-RPC endpoint and the HTTP+JSON binding on `app`. */
export function mountA2a(app: Hono, service: A2aService): void {
  const lastModified = new Date(service.cardModifiedMs).toUTCString();
  const card = (c: Context) => {
    const headers = { 'cache-control': `public, max-age=${a2aCardMaxAgeSec}`, etag: service.cardEtag, 'last-modified': lastModified, 'access-control-allow-origin': '*' };
    if (cardNotModified(c.req.header('if-none-match'), c.req.header('if-modified-since'), service.cardEtag, service.cardModifiedMs)) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(service.cardJson, { headers: { 'content-type': 'application/json', ...headers } });
  };
  for (const base of prefixes) {
    app.get(`${base}/.well-known/agent-card.json`, card);
    // `/a2a/` is the same endpoint as `/a2a` (clients that join a base URL and a path often leave the slash).
    // The one body-limit middleware (server/auth/request-bounds.ts) with A2A's bound, answered in A2A's shapes.
    for (const path of [`${base}${a2aJsonRpcPath}`, `${base}${a2aJsonRpcPath}/`]) app.post(path, jsonRpcLimit);
    for (const path of [`${base}/message:send`, `${base}/message:stream`, `${base}/tasks/*`]) app.post(path, restLimit);
    app.post(`${base}${a2aJsonRpcPath}`, (c) => jsonRpc(service, c.req.raw, authOf(c)));
    app.post(`${base}${a2aJsonRpcPath}/`, (c) => jsonRpc(service, c.req.raw, authOf(c)));
    // Anything else under /a2a answers a JSON-RPC error object, never a bare 404 page (GET /a2a/ws upgrades never get here).
    app.all(`${base}${a2aJsonRpcPath}/*`, (c) => a2aPathError(c.req.method, c.req.path, base));
    app.on(['GET', 'PUT', 'PATCH', 'DELETE'], `${base}${a2aJsonRpcPath}`, (c) => a2aPathError(c.req.method, c.req.path, base));
    mountRest(app, service, base);
  }
}

/** JSON-RPC error for a request under /a2a that is not `POST /a2a`: 405 (-32600) for the endpoint itself, else 404 (-32601). */
function a2aPathError(method: string, path: string, base: string): Response {
  const endpoint = path === `${base}${a2aJsonRpcPath}` || path === `${base}${a2aJsonRpcPath}/`;
  const error = endpoint
    ? new A2aError('invalid_request', `${method} ${path}: the JSON-RPC endpoint takes POST`)
    : new A2aError('method_not_found', `${method} ${path}: no such A2A path; JSON-RPC is POST ${base}${a2aJsonRpcPath}, WebSocket GET ${base}${a2aJsonRpcPath}/ws`, { path });
  return Response.json(rpcError(null, error), { status: endpoint ? 405 : 404, headers: endpoint ? { allow: 'POST' } : {} });
}

