/**
 * JSON-RPC 2.0 over HTTP POST: `/api/v1/rpc` (client flow), `/rpc` (daemon flow) and `/` (the public-host flow, whose
 * body may carry only `method` and `params`), served on the Node request before Hono sees it. This is the node's
 * hottest path: Hono's request and response objects, router and middleware chain cost about as much as the call
 * itself (docs/performance.md "JSON-RPC over HTTP"), so the listener runs the same access step as the Hono routes
 * (`AccessControl.admit`: credentials, then a rate token), the same deadline (504) and body bound
 * (rpcRequestBytesMax, 413), and hands the body to the dispatcher, which parses it once and checks each call's scope
 * (docs/auth.md). JSON-RPC-level errors are HTTP 200 (docs/design.md "Node APIs and access"); a request refused for
 * access answers its kind's status (401, 403, 429) with the challenges; a request of notifications only is 204.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { rpcRequestBytesMax } from '../../src/limits.ts';
import type { Dispatcher, DispatchResult, EnvelopeContext, JsonRpcResponse } from '../../src/rpc/dispatcher.ts';
import { PayloadTooLargeError, RequestTimeoutError } from '../../src/rpc/errors.ts';
import { stringifyJson } from '../../src/rpc/json.ts';
import type { AccessControl } from '../auth/access-control.ts';
import type { AccessRequest } from '../auth/admission.ts';
import { accessErrorParts, type AccessErrorParts } from '../auth/auth-responses.ts';
import { signedCallOfBody } from '../auth/authenticate.ts';
import { timedOut } from '../auth/request-bounds.ts';
import type { SignedCall } from '../../src/auth/canonical-json.ts';

const rpcPaths: readonly string[] = ['/api/v1/rpc', '/rpc', '/'];

/** Serves the request and returns true, or returns false for a request that is not a JSON-RPC POST. */
export type RpcListener = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface RpcListenerOptions {
  readonly dispatcher: Dispatcher;
  /** Absent: the node runs without access control (tests of bare servers). */
  readonly access?: Pick<AccessControl, 'admit' | 'deadline'> | undefined;
  /** Unexpected failures of the listener itself (the wire sees a bare 500). */
  readonly onError?: (error: unknown) => void;
}

const jsonContentType = 'application/json; charset=utf-8';
const tooLarge: unique symbol = Symbol('too large');

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The request body as text, read once, at most `maxBytes` (a declared or streamed excess is `tooLarge`). */
class BoundedBody {
  #text: Promise<string | typeof tooLarge> | undefined;
  #parsed: { readonly value: unknown } | undefined;
  constructor(private readonly req: IncomingMessage, private readonly maxBytes: number) {}

  text(): Promise<string | typeof tooLarge> {
    return (this.#text ??= this.#read());
  }

  /** The body parsed for a signature check; kept so the dispatcher does not parse it again. */
  parsed(): { readonly value: unknown } | undefined {
    return this.#parsed;
  }

  async signedCall(): Promise<SignedCall | undefined> {
    const text = await this.text();
    if (text === tooLarge) return undefined;
    try {
      this.#parsed = { value: JSON.parse(text) };
    } catch {
      return undefined; // Not JSON: nothing to verify.
    }
    return signedCallOfBody(this.#parsed.value);
  }

  #read(): Promise<string | typeof tooLarge> {
    const { req, maxBytes } = this;
    const declared = req.headers['content-length'];
    if (declared !== undefined && req.headers['transfer-encoding'] === undefined && Number.parseInt(declared, 10) > maxBytes) {
      req.resume();
      return Promise.resolve(tooLarge);
    }
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const onData = (chunk: Buffer): void => {
        bytes += chunk.length;
        if (bytes > maxBytes) {
          req.off('data', onData);
          req.resume();
          resolve(tooLarge);
          return;
        }
        chunks.push(chunk);
      };
      req.on('data', onData);
      req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      req.once('error', reject);
    });
  }
}

/** A Node request as the access step sees it. */
class NodeAccessRequest implements AccessRequest {
  readonly method = 'POST';
  constructor(
    private readonly req: IncomingMessage,
    readonly path: string,
    private readonly body: BoundedBody,
  ) {}
  get socketAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }
  header(name: string): string | undefined {
    return headerOf(this.req, name);
  }
  signedCall(): Promise<SignedCall | undefined> {
    return this.body.signedCall();
  }
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string, challenges: readonly string[] = []): void {
  const all: Record<string, string | string[] | number> = { ...headers, 'content-length': Buffer.byteLength(body) };
  if (challenges.length > 0) all['www-authenticate'] = [...challenges];
  res.writeHead(status, all);
  res.end(body);
}

function sendParts(res: ServerResponse, parts: AccessErrorParts): void {
  send(res, parts.status, parts.headers, parts.body, parts.challenges);
}

/** The JSON-RPC path a request is for (a POST to one of `rpcPaths`), or undefined: the listener's one test. */
export function rpcPathOf(req: IncomingMessage): string | undefined {
  if (req.method !== 'POST') return undefined;
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return rpcPaths.includes(path) ? path : undefined;
}

export function createRpcListener(options: RpcListenerOptions): RpcListener {
  const { dispatcher, access } = options;

  const answer = async (req: IncomingMessage, body: BoundedBody, ctx: EnvelopeContext): Promise<DispatchResult | typeof tooLarge> => {
    const parsed = body.parsed();
    if (parsed !== undefined) return dispatcher.dispatch(parsed.value, ctx);
    const text = await body.text();
    return text === tooLarge ? tooLarge : dispatcher.dispatchText(text, ctx);
  };

  const serve = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<void> => {
    const body = new BoundedBody(req, rpcRequestBytesMax);
    const publicFlow = path === '/';
    let ctx: EnvelopeContext = { transport: 'http', publicFlow };
    let rateHeaders: Record<string, string> = {};
    let outcome: DispatchResult | typeof tooLarge | typeof timedOut;
    if (access === undefined) {
      outcome = await answer(req, body, ctx);
    } else {
      const admission = await access.admit(new NodeAccessRequest(req, path, body));
      if (admission.refusal) {
        req.resume();
        return sendParts(res, accessErrorParts(admission.refusal.error, null, admission.refusal.headers));
      }
      rateHeaders = admission.rateHeaders;
      ctx = { transport: 'http', publicFlow, identity: admission.auth.identity, ...(admission.auth.error ? { refusal: admission.auth.error } : {}) };
      outcome = await access.deadline.race(answer(req, body, ctx));
      if (outcome === timedOut) return sendParts(res, accessErrorParts(new RequestTimeoutError(access.deadline.ms), null, rateHeaders));
    }
    if (outcome === tooLarge) return sendParts(res, accessErrorParts(new PayloadTooLargeError(rpcRequestBytesMax), null, rateHeaders));
    const { answer: response, refused } = outcome;
    if (refused) return sendParts(res, accessErrorParts(refused, (response as JsonRpcResponse).id, rateHeaders));
    if (response === undefined) {
      res.writeHead(204, rateHeaders);
      res.end();
      return;
    }
    send(res, 200, { 'content-type': jsonContentType, ...rateHeaders }, stringifyJson(response));
  };

  return (req, res) => {
    const path = rpcPathOf(req);
    if (path === undefined) return false;
    serve(req, res, path).catch((error: unknown) => {
      options.onError?.(error);
      if (res.headersSent) res.destroy();
      else send(res, 500, { 'content-type': 'text/plain; charset=utf-8' }, 'Internal Server Error');
    });
    return true;
  };
}
