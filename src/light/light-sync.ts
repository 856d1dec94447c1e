/**
 * Light sync over the p2p protocol (docs/p2p.md): a light client is an ordinary outbound peer of a full node —
 * Noise XX over any DuplexPort (the browser's WebSocket to ws://host:8081/p2p), `version`/`verack` with the
 * `browser` service bit and a best blue work of zero (so the node never tries to sync from it), then headers-first
 * download: `getheaders` with a locator over the client's own verified selected chain, each page verified by the
 * LightChain before the next is asked for. After the first round it follows the node live: every `inv` of a block
 * it does not know triggers another `getheaders` round. It answers `ping`; it never serves anything.
 *
 * Before the first `getheaders`, a fresh tab (genesis only) or one more than a pruning window behind asks for the
 * node's pruning-point proof (`getpruningproof` pages, src/p2p/proof-fetch.ts) and, when its point is above what the
 * tab holds, joins there (light-join.ts) with the trusted data of that point (`gettrusteddata` pages, or the
 * caller's `trustedData` port); headers then follow from the joined tip. On a version 1 network the tab does not ask
 * (no proofs exist there), and a node that answers `notfound` leaves it syncing from its own tip as before.
 *
 * A header that fails verification ends the session with a LightSyncError naming the header and the rule (the
 * page shows it); nothing after the bad header is stored. A proof or trusted data that fails ends it likewise
 * (`proof-invalid`, `trusted-invalid`), with nothing stored.
 */
import type { TrustedData } from '../chain/trusted-data.ts';
import { genesisHash } from '../consensus/params.ts';
import type { ProofPage } from '../p2p/fast-sync.ts';
import { fetchPruningProof } from '../p2p/proof-fetch.ts';
import { fetchTrustedData } from '../p2p/trusted-data-fetch.ts';
import { MessageMalformedError, ProtocolViolationError } from '../p2p/protocol-errors.ts';
import { decodeMessage, encodeMessage, InvType, Services, type Message, type VersionMessage } from '../p2p/messages.ts';
import { p2pProtocolVersion } from '../p2p/limits.ts';
import type { KeyPair } from '../p2p/noise/suites.ts';
import { openSecureSession, type SecureSession } from '../p2p/secure-session.ts';
import type { DuplexPort, Timer } from '../p2p/transport.ts';
import { bytesToBigIntBE, equalBytes, toHash0x, toHex } from '../util/bytes.ts';
import type { Clock } from '../util/clock.ts';
import { LightSyncError } from './errors.ts';
import type { LightChain } from './light-chain.ts';
import { joinFromNode, outgrown } from './light-join.ts';
import { lightHandshakeTimeoutMs, lightHeadersTimeoutMs } from './limits.ts';

export interface LightSyncProgress {
  /** Headers verified in this session. */
  readonly verified: number;
  readonly tipHeight: number;
  readonly tipHash: string;
  readonly tipBlueScore: number;
  /** What the node announced in its version (raised by later headers). */
  readonly peerBlueScore: number;
  /** True once a getheaders round ended without `more`. */
  readonly caughtUp: boolean;
}

export interface LightSyncOptions {
  readonly chain: LightChain;
  readonly port: DuplexPort;
  readonly staticKey: KeyPair;
  readonly randomBytes: (n: number) => Uint8Array;
  readonly timer: Timer;
  readonly clock: Clock;
  readonly userAgent: string;
  readonly onProgress?: (progress: LightSyncProgress) => void;
  /** Called for every page, after it was verified (benchmarks, tests). */
  readonly onPage?: (headers: number) => void;
  /**
   * Where the trusted data of a proven pruning point comes from (the half of LightJoinSource); by default the node
   * itself, by `gettrusteddata` pages on this session. A node that has none (`notfound`) leaves the tab syncing from
   * its own tip.
   */
  readonly trustedData?: (pruningPoint: Uint8Array) => Promise<TrustedData>;
  /** Called when the tab joined at a pruning point, before the first header above it. */
  readonly onJoin?: (pruningPoint: string) => void;
  /**
   * Verify every header from genesis and never join (a node that keeps them: an archive). For whoever wants the whole
   * header chain checked rather than the proof's work, and the baseline bench/fast-sync.ts measures joining against.
   */
  readonly fromGenesis?: boolean;
}

export interface LightSync {
  /** Resolves when the first round has caught up with the node; rejects with the error that ended the session. */
  readonly caughtUp: Promise<LightSyncProgress>;
  /** Resolves when the session ends: undefined for close(), else the reason. */
  readonly ended: Promise<LightSyncError | undefined>;
  progress(): LightSyncProgress;
  close(): void;
}

/** A `notfound` for our proof or trusted-data request: the node has none (a version 1 network), not misbehaviour. */
class ProofNotServed extends Error {}

export async function startLightSync(options: LightSyncOptions): Promise<LightSync> {
  const { chain, timer, clock } = options;
  const params = chain.params;
  const session: SecureSession = await openSecureSession({
    port: options.port, role: 'initiator', staticKey: options.staticKey, network: params.name,
    protocolVersion: p2pProtocolVersion, randomBytes: options.randomBytes, timer,
  });

  let verified = 0;
  let peerBlueScore = 0;
  let caught = false;
  let remote: VersionMessage | undefined;
  let verack = false;
  let inFlight = false;
  let again = false;
  /** Between the handshake and the first getheaders: asking for a proof and joining. */
  let joining = false;
  let started = false;
  /** The tip's committed pruning point when the tab last asked to join again because it outgrew its root. */
  let rejoinTriedAt: string | undefined;
  let pendingProof: { resolve: (page: ProofPage) => void; reject: (error: Error) => void } | undefined;
  let pendingTrusted: { resolve: (page: ProofPage) => void; reject: (error: Error) => void } | undefined;
  let cancelTimeout: (() => void) | undefined;
  let finished = false;
  let resolveCaught!: (p: LightSyncProgress) => void;
  let rejectCaught!: (e: Error) => void;
  let resolveEnded!: (e: LightSyncError | undefined) => void;
  const caughtUp = new Promise<LightSyncProgress>((res, rej) => ((resolveCaught = res), (rejectCaught = rej)));
  caughtUp.catch(() => undefined);
  const ended = new Promise<LightSyncError | undefined>((res) => (resolveEnded = res));

  const progress = (): LightSyncProgress => {
    const tip = chain.selectedTip();
    return { verified, tipHeight: tip.height, tipHash: toHash0x(tip.hash), tipBlueScore: tip.header.blueScore, peerBlueScore: Math.max(peerBlueScore, tip.header.blueScore), caughtUp: caught };
  };

  const finish = (error: LightSyncError | undefined): void => {
    if (finished) return;
    finished = true;
    cancelTimeout?.();
    pendingProof?.reject(error ?? new LightSyncError('peer-closed', 'the session was closed'));
    pendingTrusted?.reject(error ?? new LightSyncError('peer-closed', 'the session was closed'));
    if (!session.isClosed()) session.close();
    rejectCaught(error ?? new LightSyncError('peer-closed', 'the session was closed before it caught up'));
    resolveEnded(error);
  };

  const send = (message: Message): void => {
    if (!session.isClosed()) session.send(encodeMessage(message));
  };

  const armTimeout = (ms: number, what: string): void => {
    cancelTimeout?.();
    cancelTimeout = timer.setTimeout(() => finish(new LightSyncError('peer-timeout', `no ${what} within ${ms} ms`)), ms);
  };

  const requestHeaders = (): void => {
    if (inFlight || joining) {
      again = true;
      return;
    }
    inFlight = true;
    again = false;
    send({ type: 'getheaders', locator: chain.locator(), stop: new Uint8Array(32) });
    armTimeout(lightHeadersTimeoutMs, 'headers');
  };

  let flushing: Promise<void> = Promise.resolve();
  const flushInOrder = (): void => {
    flushing = flushing.then(() => chain.flush());
    flushing.catch((cause: unknown) => finish(new LightSyncError('store-failed', `storing verified headers failed: ${String((cause as Error)?.message ?? cause)}`, { cause })));
  };

  const onHeaders = async (message: Extract<Message, { type: 'headers' }>): Promise<void> => {
    cancelTimeout?.();
    verified += chain.addHeaders(message.headers);
    const last = message.headers.at(-1);
    if (last) peerBlueScore = Math.max(peerBlueScore, last.blueScore);
    inFlight = false;
    // Ask for the next page before writing this one, and do not wait for the write: the node builds the next page
    // and the bytes travel while the store writes and this page's successor is verified. Writes stay in order
    // (each flush takes what was staged when it was called); the last one is awaited before "caught up".
    if (message.more || again) {
      requestHeaders();
      flushInOrder();
      return options.onPage?.(message.headers.length);
    }
    flushInOrder();
    await flushing;
    options.onPage?.(message.headers.length);
    if (!caught) {
      caught = true;
      resolveCaught(progress());
    }
    options.onProgress?.(progress());
    // A tab left open follows the node live; once its tip's pruning point is a window above its root it joins again
    // there (outside the queue: the proof pages come through it).
    // Tried once per committed point: a node whose own point is not far enough up yet is asked again when it moves.
    const committed = chain.selectedTip().header.pruningPoint;
    if (!joining && !options.fromGenesis && committed !== undefined && toHex(committed) !== rejoinTriedAt && outgrown(chain)) {
      rejoinTriedAt = toHex(committed);
      void begin();
    }
  };

  /** The proof half of the join source: one `getpruningproof` page at a time; `notfound` means the node has none. */
  const requestProofPage = (pruningPoint: Uint8Array, offset: number): Promise<ProofPage> =>
    new Promise<ProofPage>((resolve, reject) => {
      pendingProof = { resolve, reject };
      send({ type: 'getpruningproof', pruningPoint, offset });
      armTimeout(lightHeadersTimeoutMs, 'pruning-proof page');
    });

  const pruningProof = async () => {
    try {
      return (await fetchPruningProof(requestProofPage)).proof;
    } catch (error) {
      if (error instanceof ProofNotServed) return undefined;
      if (error instanceof MessageMalformedError || error instanceof ProtocolViolationError) throw new LightSyncError('protocol', `the node's pruning-point proof: ${error.message}`, { cause: error });
      throw error;
    } finally {
      pendingProof = undefined;
      cancelTimeout?.();
    }
  };

  /** The trusted-data half over this session: `gettrusteddata` pages by the proven point (src/p2p/trusted-data-fetch.ts). */
  const requestTrustedPage = (pruningPoint: Uint8Array, offset: number): Promise<ProofPage> =>
    new Promise<ProofPage>((resolve, reject) => {
      pendingTrusted = { resolve, reject };
      send({ type: 'gettrusteddata', pruningPoint, offset });
      armTimeout(lightHeadersTimeoutMs, 'trusted-data page');
    });

  const sessionTrustedData = async (pruningPoint: Uint8Array): Promise<TrustedData> => {
    try {
      return await fetchTrustedData(pruningPoint, requestTrustedPage);
    } catch (error) {
      if (error instanceof MessageMalformedError || error instanceof ProtocolViolationError) throw new LightSyncError('protocol', `the node's trusted data: ${error.message}`, { cause: error });
      throw error;
    } finally {
      pendingTrusted = undefined;
      cancelTimeout?.();
    }
  };
  const trustedData = options.trustedData ?? sessionTrustedData;

  /** After the handshake: join if the tab should and can, then the first getheaders. Runs beside the message queue. */
  const begin = async (): Promise<void> => {
    // Only version 2 headers carry what a proof is built from: a version 1 network's tab syncs from its own tip.
    if (params.headerVersion === 2 && !options.fromGenesis) await join();
    if (finished) return;
    options.onProgress?.(progress());
    requestHeaders();
  };

  const join = async (): Promise<void> => {
    joining = true;
    try {
      const outcome = await joinFromNode(chain, { pruningProof, trustedData }, { blueScore: remote!.bestBlueScore, blueWork: remote!.bestBlueWork }, clock.nowMs());
      if (outcome === 'joined') options.onJoin?.(toHash0x(chain.selectedTip().hash));
    } catch (error) {
      // A node with a proof but no trusted data for it (its point moved meanwhile): follow from our own tip.
      if (!(error instanceof ProofNotServed)) {
        return finish(error instanceof LightSyncError ? error : new LightSyncError('protocol', `joining failed: ${String((error as Error)?.message ?? error)}`, { cause: error }));
      }
    } finally {
      joining = false;
    }
  };

  const checkVersion = (v: VersionMessage): void => {
    if (v.network !== params.name || v.chainId !== params.chainId || !equalBytes(v.genesis, genesisHash(params))) {
      throw new LightSyncError('peer-incompatible', `the node is on ${v.network} (chain id ${v.chainId}, genesis ${toHash0x(v.genesis)}); this light node follows ${params.name}`);
    }
  };

  const handle = async (message: Message): Promise<void> => {
    switch (message.type) {
      case 'version':
        if (remote) throw new LightSyncError('protocol', 'a second version message');
        checkVersion(message);
        remote = message;
        peerBlueScore = message.bestBlueScore;
        send({ type: 'verack' });
        break;
      case 'verack':
        verack = true;
        break;
      case 'ping':
        return send({ type: 'pong', nonce: message.nonce });
      case 'headers':
        if (!inFlight) throw new LightSyncError('protocol', 'headers nobody asked for');
        return onHeaders(message);
      case 'pruningproof': {
        const pending = pendingProof;
        if (pending === undefined) throw new LightSyncError('protocol', 'a pruning-proof page nobody asked for');
        pendingProof = undefined;
        return pending.resolve(message);
      }
      case 'trusteddata': {
        const pending = pendingTrusted;
        if (pending === undefined) throw new LightSyncError('protocol', 'a trusted-data page nobody asked for');
        pendingTrusted = undefined;
        return pending.resolve(message);
      }
      case 'notfound':
        if (pendingProof !== undefined && message.items.some((i) => i.kind === InvType.pruningProof)) {
          const pending = pendingProof;
          pendingProof = undefined;
          pending.reject(new ProofNotServed('the node serves no pruning-point proof'));
        }
        if (pendingTrusted !== undefined && message.items.some((i) => i.kind === InvType.trustedData)) {
          const pending = pendingTrusted;
          pendingTrusted = undefined;
          pending.reject(new ProofNotServed('the node serves no trusted data at that pruning point'));
        }
        return;
      case 'inv':
        if (message.items.some((i) => i.kind === InvType.block && !chain.has(toHex(i.hash)))) requestHeaders();
        return;
      case 'getaddr':
        return send({ type: 'addr', entries: [] });
      case 'getheaders':
        // We announce zero work, so a node has nothing to ask; answer empty rather than stall it.
        return send({ type: 'headers', headers: [], more: false });
      default:
        return; // addr, reject, unknown …: nothing a light client acts on
    }
    if (remote && verack && !started) {
      started = true;
      cancelTimeout?.();
      void begin();
    }
  };

  // Messages are handled strictly in order: a page is verified and flushed before the next message is looked at.
  let queue: Promise<void> = Promise.resolve();
  session.onMessage((bytes) => {
    queue = queue.then(async () => {
      if (finished) return;
      try {
        await handle(decodeMessage(bytes));
      } catch (error) {
        finish(error instanceof LightSyncError ? error : new LightSyncError('protocol', `message refused: ${String((error as Error).message ?? error)}`, { cause: error }));
      }
    });
  });
  session.onClose((error) => finish(error ? new LightSyncError('peer-closed', `the node closed the session: ${error.message}`, { cause: error }) : new LightSyncError('peer-closed', 'the node closed the session')));

  const tip = chain.selectedTip();
  send({
    type: 'version', protocolVersion: p2pProtocolVersion, network: params.name, chainId: params.chainId, genesis: genesisHash(params),
    services: Services.browser, timestampMs: clock.nowMs(), nonce: bytesToBigIntBE(options.randomBytes(8)), userAgent: options.userAgent,
    // Zero work: the node must never pick a light client as its sync peer (it serves no bodies).
    listenPort: 0, bestBlueScore: 0, bestBlueWork: 0n, selectedTip: tip.hash, relay: false,
  });
  armTimeout(lightHandshakeTimeoutMs, 'version handshake');

  return {
    caughtUp,
    ended,
    progress,
    close: () => finish(undefined),
  };
}
