/**
 * One sync session of the tab's light node over the node's p2p bridge (src/light/light-sync.ts on a WebSocket
 * DuplexPort), and what follows its end: a session the node ended by sending something that failed verification
 * is shown and not retried (a lying peer must not be retried in a loop); any other end reconnects after a pause.
 */
import { LightSyncError } from '../../../src/light/errors.ts';
import { startLightSync } from '../../../src/light/light-sync.ts';
import type { Timer } from '../../../src/p2p/transport.ts';
import { systemClock } from '../../../src/util/clock.ts';
import { openWebSocketPort } from '../ws-duplex-port.ts';
import { emitStatus, type LightNodeRuntime } from './state.ts';

/** Wait before reconnecting after the bridge dropped (not after a verification failure). */
const lightReconnectDelayMs = 3_000;

/** Session endings shown and not retried: the node sent something that failed verification. */
const refusals = new Set(['header-invalid', 'header-disconnected', 'peer-incompatible', 'proof-invalid', 'trusted-invalid']);

export const browserRandomBytes = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));
/**
 * setTimeout, but a zero delay is a message-channel turn: browsers clamp nested zero timers to 4 ms, and the session
 * yields to the event loop every 8 ms of header verification (src/light/sync/on-headers.ts), which would spend a third
 * of a sync waiting.
 */
const browserTimer: Timer = {
  setTimeout(cb, ms) {
    if (ms > 0) {
      const t = setTimeout(cb, ms);
      return () => clearTimeout(t);
    }
    const { port1, port2 } = new MessageChannel();
    let live = true;
    port1.onmessage = () => (port1.close(), live && cb());
    port2.postMessage(null);
    return () => void (live = false);
  },
};

export async function connectLightNode(node: LightNodeRuntime): Promise<void> {
  if (node.stopped) return;
  node.state = 'syncing';
  emitStatus(node);
  try {
    node.session = await startLightSync({
      chain: node.chain, port: await openWebSocketPort(node.p2pUrl), staticKey: node.staticKey, randomBytes: browserRandomBytes, timer: browserTimer,
      clock: systemClock, userAgent: '/weft-light:0.1.0/', fromGenesis: node.fromGenesis,
      onJoin: () => emitStatus(node),
      onProgress: (p) => {
        node.progress = p;
        if (p.caughtUp) {
          node.state = 'synced';
          node.syncEnded ??= performance.now();
          node.wake();
        }
        emitStatus(node);
      },
      onPage: () => {
        node.progress = node.session?.progress();
        emitStatus(node);
      },
    });
    const ended = await node.session.ended;
    if (ended !== undefined && refusals.has(ended.reason)) return reject(node, ended, true);
  } catch (cause) {
    if (cause instanceof LightSyncError && cause.reason !== 'peer-closed' && cause.reason !== 'peer-timeout') return reject(node, cause, false);
  }
  if (node.stopped) return;
  node.state = 'disconnected';
  emitStatus(node);
  setTimeout(() => void connectLightNode(node), lightReconnectDelayMs);
}

/** Stops on a refusal and shows it, with the refused header, rule and proof reason when the session ended on one. */
function reject(node: LightNodeRuntime, error: LightSyncError, detailed: boolean): void {
  node.state = 'rejected';
  node.error = !detailed
    ? { reason: error.reason, message: error.message }
    : {
        reason: error.reason, message: error.message, ...(error.headerHash ? { headerHash: error.headerHash } : {}), ...(error.rule ? { rule: error.rule } : {}),
        ...(error.proofReason ? { proofReason: error.proofReason } : {}),
      };
  emitStatus(node);
}
