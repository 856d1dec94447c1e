/**
 * Assembles the A2A endpoint of a node: task store on the node's KvStore, the executor (the built-in Weft agent
 * unless another is given), the agent card (signed when a key is configured), push delivery with its SSRF guard,
 * and the handler every binding calls. Bindings: mountA2a (HTTP: card, JSON-RPC, HTTP+JSON, SSE),
 * attachA2aWebSocket (/a2a/ws), registerA2aGrpc (lf.a2a.v1.A2AService).
 */
import type { A2aAuthConfig } from '../../src/a2a/auth.ts';
import { buildAgentCard, cardEtag, canonicalJson, type AgentCard, type AgentSkill, type CardOptions } from '../../src/a2a/card.ts';
import { signAgentCard } from '../../src/a2a/card-sign.ts';
import type { AgentExecutor } from '../../src/a2a/executor.ts';
import { createA2aHandler, uuidFromBytes, type A2aHandler } from '../../src/a2a/handler.ts';
import type { SettlementPolicy } from '../../src/a2a/settlement.ts';
import { createKvTaskStore, type TaskStore } from '../../src/a2a/task-store.ts';
import type { TerminalHook } from '../../src/a2a/runner/state.ts';
import type { KvStore } from '../../src/storage/kv.ts';
import { concatBytes } from '../../src/util/bytes.ts';
import { systemClock, type Clock } from '../../src/util/clock.ts';
import { createPushSender, type PushSender, type PushSenderOptions } from './push-sender.ts';

export interface A2aServiceOptions {
  readonly kv: KvStore;
  readonly executor: AgentExecutor;
  readonly card: Omit<CardOptions, 'auth'>;
  readonly auth: A2aAuthConfig;
  /** Skills only authenticated callers see (GetExtendedAgentCard); the extended card is offered when set. */
  readonly extendedSkills?: readonly AgentSkill[];
  /** Signs the card (JWS, A2A 1.0 §8.4). */
  readonly signing?: { readonly key: CryptoKey | Uint8Array; readonly alg: string; readonly kid: string; readonly jku?: string };
  /** Push delivery options; `false` turns push notifications off (capability false, -32003). */
  readonly push?: PushSenderOptions | false;
  /** Serve requests without `A2A-Version` as 1.0 (curl-style clients) instead of answering -32009. */
  readonly lenientVersion?: boolean;
  readonly clock?: Clock;
  /** On-chain settlement of tasks (src/a2a/settlement.ts); absent: a request naming an escrow is refused. */
  readonly settlement?: SettlementPolicy;
  /** Told of each task reaching a terminal state (server/a2a/node-a2a.ts: the settlement follower). */
  readonly onTerminal?: TerminalHook;
}

export interface A2aService {
  readonly handler: A2aHandler;
  /** The tasks and their settlement index (the node's follower resumes from it on start). */
  readonly store: TaskStore;
  readonly auth: A2aAuthConfig;
  readonly lenientVersion: boolean;
  readonly card: AgentCard;
  readonly cardJson: string;
  readonly cardEtag: string;
  /** When this card (by its ETag) was first served by this node, whole seconds: its Last-Modified (RFC 9110 §8.8.2). */
  readonly cardModifiedMs: number;
  readonly push: PushSender | undefined;
  close(): void;
}

const newId = () => uuidFromBytes(crypto.getRandomValues(new Uint8Array(16)));

/** 'a' 'c' + ETag: when the node first served that card (u64 ms), so a restart with the same card keeps its date. */
const cardModifiedKey = (etag: string): Uint8Array => concatBytes(Uint8Array.of(0x61, 0x63), new TextEncoder().encode(etag));

async function cardModifiedAt(kv: KvStore, etag: string, nowMs: number): Promise<number> {
  const stored = kv.get(cardModifiedKey(etag));
  if (stored !== undefined && stored.length === 8) return Number(new DataView(stored.buffer, stored.byteOffset, 8).getBigUint64(0));
  const ms = Math.floor(nowMs / 1000) * 1000; // HTTP dates have whole seconds
  const value = new Uint8Array(8);
  new DataView(value.buffer).setBigUint64(0, BigInt(ms));
  await kv.write([{ type: 'put', key: cardModifiedKey(etag), value }]);
  return ms;
}

export async function createA2aService(options: A2aServiceOptions): Promise<A2aService> {
  const push = options.push === false ? undefined : createPushSender(options.push ?? {});
  const cardOptions: CardOptions = {
    ...options.card,
    auth: options.auth,
    pushNotifications: push !== undefined && options.card.pushNotifications,
    extendedAgentCard: options.extendedSkills !== undefined,
  };
  let card = buildAgentCard(cardOptions);
  let extended: AgentCard | undefined = options.extendedSkills ? { ...card, skills: [...card.skills, ...options.extendedSkills] } : undefined;
  if (options.signing) {
    card = await signAgentCard(card, options.signing.key, options.signing);
    if (extended) extended = await signAgentCard(extended, options.signing.key, options.signing);
  }
  const store = createKvTaskStore(options.kv);
  const handler = createA2aHandler({
    store,
    executor: options.executor,
    clock: options.clock ?? systemClock,
    newId,
    card,
    ...(extended ? { extendedCard: extended } : {}),
    ...(push ? { push, validatePushUrl: push.validate } : {}),
    ...(options.settlement ? { settlement: options.settlement } : {}),
    ...(options.onTerminal ? { onTerminal: options.onTerminal } : {}),
  });
  await handler.runner.recover();
  const etag = cardEtag(card);
  const cardModifiedMs = await cardModifiedAt(options.kv, etag, (options.clock ?? systemClock).nowMs());
  return {
    handler,
    store,
    auth: options.auth,
    lenientVersion: options.lenientVersion ?? false,
    card,
    cardJson: canonicalJson(card),
    cardEtag: etag,
    cardModifiedMs,
    push,
    close: () => push?.close(),
  };
}
