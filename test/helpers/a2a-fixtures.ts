// A2A test fixtures: a scripted executor (behaviour chosen by the first word of the message, like the a2a-tck's
// messageId prefixes) and a real A2A endpoint on 127.0.0.1 port 0 over @hono/node-server.
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { A2aAuthConfig } from '../../src/a2a/auth.ts';
import type { AgentExecutor } from '../../src/a2a/executor.ts';
import { createMemoryStore } from '../../src/storage/memory-store.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { mountA2a } from '../../server/a2a/http.ts';
import { attachA2aWebSocket } from '../../server/a2a/ws.ts';
import { registerA2aGrpc } from '../../server/a2a/grpc.ts';
import { createA2aService, type A2aService, type A2aServiceOptions } from '../../server/a2a/service.ts';

/** Gates that "wait" tasks block on, released by the test. */
export function createGates() {
  const waiting = new Map<string, () => void>();
  return {
    wait(key: string, signal: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        waiting.set(key, resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    },
    release(key: string): void {
      waiting.get(key)?.();
      waiting.delete(key);
    },
  };
}

export function createScriptedExecutor(gates = createGates()): AgentExecutor & { gates: typeof gates } {
  return {
    gates,
    async execute(ctx, events) {
      const text = ctx.message.parts.map((p) => p.text ?? '').join(' ').trim();
      const [verb = '', arg = ''] = text.split(/\s+/);
      switch (verb) {
        case 'reply':
          return events.reply([{ text: `echo: ${text}` }]);
        case 'complete':
          await events.status('TASK_STATE_WORKING');
          await events.artifact({ artifactId: 'a1', name: 'result', parts: [{ text: 'done' }] }, { lastChunk: true });
          return events.status('TASK_STATE_COMPLETED', 'finished');
        case 'chunks':
          await events.status('TASK_STATE_WORKING');
          await events.artifact({ artifactId: 'c', parts: [{ text: 'chunk-1 ' }] });
          await events.artifact({ artifactId: 'c', parts: [{ text: 'chunk-2' }] }, { append: true, lastChunk: true });
          return events.status('TASK_STATE_COMPLETED');
        case 'input':
          return events.status('TASK_STATE_INPUT_REQUIRED', 'need more');
        case 'auth':
          return events.status('TASK_STATE_AUTH_REQUIRED', 'sign in first');
        case 'reject':
          return events.status('TASK_STATE_REJECTED', 'no');
        case 'fail':
          await events.status('TASK_STATE_WORKING');
          throw new Error('boom');
        case 'nothing':
          return;
        case 'bad':
          await events.status('TASK_STATE_COMPLETED');
          return events.status('TASK_STATE_WORKING');
        case 'wait':
          await events.status('TASK_STATE_WORKING');
          await gates.wait(arg, ctx.signal);
          if (ctx.signal.aborted) return;
          await events.artifact({ artifactId: 'w', parts: [{ text: `released ${arg}` }] }, { lastChunk: true });
          return events.status('TASK_STATE_COMPLETED');
        default:
          // Follow-ups to an INPUT_REQUIRED task complete it.
          if (ctx.task) {
            await events.status('TASK_STATE_WORKING');
            return events.status('TASK_STATE_COMPLETED', `got ${text}`);
          }
          return events.status('TASK_STATE_REJECTED', `unknown ${verb}`);
      }
    },
  };
}

export interface A2aTestServer {
  readonly base: string;
  readonly port: number;
  /** host:port of the gRPC server. */
  readonly grpcTarget: string;
  readonly service: A2aService;
  readonly kv: KvStore;
  close(): Promise<void>;
}

export async function startA2aServer(
  options: Partial<Omit<A2aServiceOptions, 'card'>> & { card?: Partial<A2aServiceOptions['card']>; auth?: A2aAuthConfig } = {},
): Promise<A2aTestServer> {
  const kv = options.kv ?? createMemoryStore();
  const app = new Hono();
  let port = 0;
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: (req, env) => app.fetch(req, env), port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  const grpcServer = new grpc.Server();
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  const service = await createA2aService({
    push: { allowHosts: ['127.0.0.1', 'localhost'], retryBaseMs: 20 },
    ...options,
    kv,
    executor: options.executor ?? createScriptedExecutor(),
    auth: options.auth ?? { required: false },
    card: {
      name: 'Test agent',
      description: 'scripted',
      version: '0.0.1',
      jsonRpcUrl: `${base}/a2a`,
      restUrl: base,
      grpcUrl: `127.0.0.1:${grpcPort}`,
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: false,
      skills: [{ id: 's', name: 'script', description: 'scripted behaviours', tags: ['test'] }],
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      ...options.card,
    },
  });
  mountA2a(app, service);
  const ws = attachA2aWebSocket(server as unknown as import('node:http').Server, service);
  registerA2aGrpc(grpcServer, service);
  return {
    base,
    port,
    grpcTarget: `127.0.0.1:${grpcPort}`,
    service,
    kv,
    async close() {
      service.close();
      ws.close();
      grpcServer.forceShutdown();
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
