/**
 * The tab's light node: its own header chain (src/light/light-chain.ts) in IndexedDB, synced and kept live over
 * the node's p2p bridge (src/light/light-sync.ts on a WebSocket DuplexPort). It reconnects after the session
 * drops, except when the peer sent a header that failed verification — that is shown and the node stays
 * stopped until the user retries (a lying peer must not be retried in a loop).
 */
import type { NetworkParams } from '../../src/consensus/params.ts';
import { LightSyncError } from '../../src/light/errors.ts';
import { openLightChain, type LightChain } from '../../src/light/light-chain.ts';
import { createMemoryHeaderStore, type LightHeaderStore } from '../../src/light/light-store.ts';
import { startLightSync, type LightSync, type LightSyncProgress } from '../../src/light/light-sync.ts';
import { x25519Dh } from '../../src/p2p/noise/suites.ts';
import { systemClock } from '../../src/util/clock.ts';
import { toHash0x } from '../../src/util/bytes.ts';
import { openIdbHeaderStore } from './idb-header-store.ts';
import { openWebSocketPort } from './ws-duplex-port.ts';
import { installWasmBlake3 } from './wasm-blake3.ts';

/** Wait before reconnecting after the bridge dropped (not after a verification failure). */
export const lightReconnectDelayMs = 3_000;

export type LightNodeState = 'starting' | 'syncing' | 'synced' | 'disconnected' | 'rejected';

export interface LightNodeStatus {
  readonly state: LightNodeState;
  readonly network: string;
  readonly verified: number;
  /** Headers replayed from IndexedDB at start. */
  readonly resumed: number;
  readonly headers: number;
  readonly tipHeight: number;
  readonly tipHash: string;
  readonly hashBackend: string;
  /**
   * Where verified headers are kept: IndexedDB; IndexedDB read at start while another tab of this origin is its
   * writer (new headers stay in memory); or memory where the browser refuses IndexedDB (third-party frames).
   */
  readonly storage: 'indexeddb' | 'indexeddb-reader' | 'memory';
  readonly syncSeconds: number;
  /** The pruning point this tab joined at (0x-hash), or null for a chain from genesis. */
  readonly joinedAt: string | null;
  readonly error: { readonly reason: string; readonly message: string; readonly headerHash?: string; readonly rule?: string; readonly proofReason?: string } | null;
}

export interface LightNode {
  readonly chain: LightChain;
  status(): LightNodeStatus;
  onStatus(listener: (status: LightNodeStatus) => void): () => void;
  /** Resolves when the chain has caught up with the node once (now, if it already has). */
  synced(): Promise<void>;
  retry(): void;
  close(): void;
}

/**
 * IndexedDB, or memory when the browser refuses it — Chromium blocks storage in third-party frames in some profiles
 * (the widget's iframe, docs/widget.md): the light node then verifies from genesis on every load, which is slower
 * but no less safe.
 */
async function openHeaderStore(network: string): Promise<{ store: LightHeaderStore; storage: LightNodeStatus['storage'] }> {
  try {
    const { store, role } = await openIdbHeaderStore(network);
    return { store, storage: role === 'writer' ? 'indexeddb' : 'indexeddb-reader' };
  } catch {
    return { store: createMemoryHeaderStore(), storage: 'memory' };
  }
}

/** One line for pages that show the light node beside something else (wallet, widget). */
export function describeLightNode(s: LightNodeStatus): string {
  const where = s.storage === 'memory' ? ', kept in memory' : s.storage === 'indexeddb-reader' ? ', stored by another tab' : '';
  if (s.state === 'rejected') return `light node: stopped — ${s.error?.message ?? 'a header failed verification'}`;
  const joined = s.joinedAt ? `, joined at pruning point ${s.joinedAt.slice(0, 10)}…` : '';
  return `light node: ${s.state}, ${s.headers.toLocaleString('en')} headers verified${joined}${where}, tip height ${s.tipHeight}`;
}

const randomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));
const browserTimer = { setTimeout: (cb: () => void, ms: number) => { const t = setTimeout(cb, ms); return () => clearTimeout(t); } };

/** Session endings shown and not retried: the node sent something that failed verification. */
const refusals = new Set(['header-invalid', 'header-disconnected', 'peer-incompatible', 'proof-invalid', 'trusted-invalid']);

/**
 * A fresh tab on a version 2 network joins at the node's proven pruning point (proof and trusted data over the same
 * session, src/light/light-sync.ts); on a version 1 network it syncs from genesis.
 */
export async function startLightNode(options: { params: NetworkParams; p2pUrl: string; fromGenesis?: boolean }): Promise<LightNode> {
  const { params } = options;
  const hashBackend = await installWasmBlake3();
  const { store, storage } = await openHeaderStore(params.name);
  const chain = await openLightChain({ params, store, clock: systemClock });
  const staticKey = x25519Dh.generateKeyPair(randomBytes);
  const listeners = new Set<(s: LightNodeStatus) => void>();
  const began = performance.now();
  let syncEnded: number | undefined;
  let state: LightNodeState = 'starting';
  let error: LightNodeStatus['error'] = null;
  let progress: LightSyncProgress | undefined;
  let session: LightSync | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;
  const syncedOnce = new Promise<void>((resolve) => (wake = resolve));

  const status = (): LightNodeStatus => {
    const tip = chain.selectedTip();
    return {
      state, network: params.name, verified: progress?.verified ?? 0, resumed: chain.resumedCount, headers: chain.count(),
      tipHeight: tip.height, tipHash: toHash0x(tip.hash), hashBackend, storage, error,
      joinedAt: ((joined) => (joined ? toHash0x(joined.hash) : null))(chain.joinedAt()),
      syncSeconds: ((syncEnded ?? performance.now()) - began) / 1000,
    };
  };
  const emit = (): void => {
    const s = status();
    for (const l of listeners) l(s);
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    state = 'syncing';
    emit();
    try {
      session = await startLightSync({
        chain, port: await openWebSocketPort(options.p2pUrl), staticKey, randomBytes, timer: browserTimer, clock: systemClock,
        userAgent: '/weft-light:0.1.0/', fromGenesis: options.fromGenesis,
        onJoin: () => emit(),
        onProgress: (p) => { progress = p; if (p.caughtUp) { state = 'synced'; syncEnded ??= performance.now(); wake?.(); } emit(); },
        onPage: () => { progress = session?.progress(); emit(); },
      });
      const ended = await session.ended;
      if (ended !== undefined && refusals.has(ended.reason)) {
        state = 'rejected';
        error = {
          reason: ended.reason, message: ended.message, ...(ended.headerHash ? { headerHash: ended.headerHash } : {}), ...(ended.rule ? { rule: ended.rule } : {}),
          ...(ended.proofReason ? { proofReason: ended.proofReason } : {}),
        };
        return emit();
      }
    } catch (cause) {
      if (cause instanceof LightSyncError && cause.reason !== 'peer-closed' && cause.reason !== 'peer-timeout') {
        state = 'rejected';
        error = { reason: cause.reason, message: cause.message };
        return emit();
      }
    }
    if (stopped) return;
    state = 'disconnected';
    emit();
    setTimeout(() => void connect(), lightReconnectDelayMs);
  };
  void connect();

  return {
    chain,
    status,
    onStatus(listener) {
      listeners.add(listener);
      listener(status());
      return () => listeners.delete(listener);
    },
    synced: () => syncedOnce,
    retry() {
      if (state !== 'rejected') return;
      error = null;
      void connect();
    },
    close() {
      stopped = true;
      session?.close();
    },
  };
}
