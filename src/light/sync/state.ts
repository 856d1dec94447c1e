/**
 * The state of one light sync session (src/light/light-sync.ts) and the few operations every other step uses:
 * progress, send, the one timeout armed at a time, and finish. The steps themselves are free functions over this
 * state in the files beside it (handshake and messages, headers, joining).
 */
import type { ProofPage } from '../../p2p/paged-fetch.ts';
import { encodeMessage, type Message } from '../../p2p/messages.ts';
import type { SecureSession } from '../../p2p/secure-session.ts';
import { createVersionHandshake, type VersionExpectation, type VersionHandshake } from '../../p2p/version-handshake.ts';
import { genesisHash } from '../../consensus/params.ts';
import { toHash0x } from '../../util/bytes.ts';
import { LightSyncError } from '../errors.ts';
import type { LightChain } from '../light-chain.ts';
import type { LightSyncOptions, LightSyncProgress } from './types.ts';

/** A `notfound` for our proof or trusted-data request: the node has none (a version 1 network), not misbehaviour. */
export class ProofNotServed extends Error {}

/** The one proof or trusted-data page request in flight. */
interface PendingPage {
  resolve(page: ProofPage): void;
  reject(error: Error): void;
}

export interface LightSyncState {
  readonly options: LightSyncOptions;
  readonly chain: LightChain;
  readonly session: SecureSession;
  /** The node's version and verack, by the p2p node's own rules (src/p2p/version-handshake.ts). */
  readonly handshake: VersionHandshake;
  readonly expected: VersionExpectation;
  /** Headers verified in this session. */
  verified: number;
  peerBlueScore: number;
  /** A getheaders round has ended without `more`. */
  caught: boolean;
  /** A getheaders is out. */
  inFlight: boolean;
  /** Another getheaders round is due when the one out (or the join) ends. */
  again: boolean;
  /** Between the handshake and the first getheaders: asking for a proof and joining. */
  joining: boolean;
  /** The first round began (after the handshake). */
  started: boolean;
  /** The tip's committed pruning point when the tab last asked to join again because it outgrew its root. */
  rejoinTriedAt: string | undefined;
  pendingProof: PendingPage | undefined;
  pendingTrusted: PendingPage | undefined;
  cancelTimeout: (() => void) | undefined;
  finished: boolean;
  /** Store writes, chained so they land in order. */
  flushing: Promise<void>;
  /** Received messages, handled strictly one after another. */
  queue: Promise<void>;
  readonly caughtUp: Promise<LightSyncProgress>;
  readonly ended: Promise<LightSyncError | undefined>;
  readonly resolveCaught: (progress: LightSyncProgress) => void;
  readonly rejectCaught: (error: Error) => void;
  readonly resolveEnded: (error: LightSyncError | undefined) => void;
}

export function createLightSyncState(options: LightSyncOptions, session: SecureSession): LightSyncState {
  const params = options.chain.params;
  let resolveCaught!: (p: LightSyncProgress) => void;
  let rejectCaught!: (e: Error) => void;
  let resolveEnded!: (e: LightSyncError | undefined) => void;
  const caughtUp = new Promise<LightSyncProgress>((res, rej) => ((resolveCaught = res), (rejectCaught = rej)));
  caughtUp.catch(() => undefined);
  const ended = new Promise<LightSyncError | undefined>((res) => (resolveEnded = res));
  return {
    options, chain: options.chain, session,
    handshake: createVersionHandshake(),
    expected: { network: params.name, chainId: params.chainId, genesis: genesisHash(params) },
    verified: 0, peerBlueScore: 0, caught: false, inFlight: false, again: false, joining: false, started: false,
    rejoinTriedAt: undefined, pendingProof: undefined, pendingTrusted: undefined, cancelTimeout: undefined, finished: false,
    flushing: Promise.resolve(), queue: Promise.resolve(),
    caughtUp, ended, resolveCaught, rejectCaught, resolveEnded,
  };
}

export function syncProgress(state: LightSyncState): LightSyncProgress {
  const tip = state.chain.selectedTip();
  return {
    verified: state.verified, tipHeight: tip.height, tipHash: toHash0x(tip.hash), tipBlueScore: tip.header.blueScore,
    peerBlueScore: Math.max(state.peerBlueScore, tip.header.blueScore), caughtUp: state.caught,
  };
}

/** Ends the session once: undefined for close(), else the reason (rejects whatever still waits on the node). */
export function finishSync(state: LightSyncState, error: LightSyncError | undefined): void {
  if (state.finished) return;
  state.finished = true;
  state.cancelTimeout?.();
  state.pendingProof?.reject(error ?? new LightSyncError('peer-closed', 'the session was closed'));
  state.pendingTrusted?.reject(error ?? new LightSyncError('peer-closed', 'the session was closed'));
  if (!state.session.isClosed()) state.session.close();
  state.rejectCaught(error ?? new LightSyncError('peer-closed', 'the session was closed before it caught up'));
  state.resolveEnded(error);
}

export function sendMessage(state: LightSyncState, message: Message): void {
  if (!state.session.isClosed()) state.session.send(encodeMessage(message));
}

/** One timeout at a time: arming another cancels the one before. */
export function armTimeout(state: LightSyncState, ms: number, what: string): void {
  state.cancelTimeout?.();
  state.cancelTimeout = state.options.timer.setTimeout(() => finishSync(state, new LightSyncError('peer-timeout', `no ${what} within ${ms} ms`)), ms);
}
