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
 * The version/verack handshake is the p2p node's own (src/p2p/version-handshake.ts): the node's version must come
 * before its verack, name this network, chain id and genesis, and speak at least `p2pProtocolVersionMin`; nothing
 * else is taken before both (`protocol` / `peer-incompatible` otherwise).
 *
 * A header that fails verification ends the session with a LightSyncError naming the header and the rule (the
 * page shows it); nothing after the bad header is stored. A proof or trusted data that fails ends it likewise
 * (`proof-invalid`, `trusted-invalid`), with nothing stored.
 *
 * The session's state is one LightSyncState (sync/state.ts); each step is a free function over it in src/light/sync/.
 */
import { p2pProtocolVersion } from '../p2p/limits.ts';
import { openSecureSession } from '../p2p/secure-session.ts';
import { LightSyncError } from './errors.ts';
import { lightHandshakeTimeoutMs } from './limits.ts';
import { ownVersion, receiveMessage } from './sync/handle-message.ts';
import { armTimeout, createLightSyncState, finishSync, sendMessage, syncProgress } from './sync/state.ts';
import type { LightSync, LightSyncOptions } from './sync/types.ts';

export type { LightSync, LightSyncOptions, LightSyncProgress } from './sync/types.ts';

export async function startLightSync(options: LightSyncOptions): Promise<LightSync> {
  const session = await openSecureSession({
    port: options.port, role: 'initiator', staticKey: options.staticKey, network: options.chain.params.name,
    protocolVersion: p2pProtocolVersion, randomBytes: options.randomBytes, timer: options.timer,
  });
  const state = createLightSyncState(options, session);
  // Messages are handled strictly in order: a page is verified and flushed before the next message is looked at.
  session.onMessage((bytes) => receiveMessage(state, bytes));
  session.onClose((error) =>
    finishSync(state, error ? new LightSyncError('peer-closed', `the node closed the session: ${error.message}`, { cause: error }) : new LightSyncError('peer-closed', 'the node closed the session')),
  );
  sendMessage(state, ownVersion(state));
  armTimeout(state, lightHandshakeTimeoutMs, 'version handshake');
  return {
    caughtUp: state.caughtUp,
    ended: state.ended,
    progress: () => syncProgress(state),
    close: () => finishSync(state, undefined),
  };
}
