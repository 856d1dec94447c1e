/** `ping` (0x03) and `pong` (0x04): liveness, a nonce the answer echoes (docs/p2p.md "Messages"; peer.ts). */
import type { MessageCodec } from './message-codec.ts';

function nonceCodec<T extends 'ping' | 'pong'>(type: T, code: number): MessageCodec<{ readonly type: T; readonly nonce: bigint }> {
  return {
    type,
    code,
    payloadBytesMax: 8,
    write: (w, m) => w.u64(m.nonce, 'nonce'),
    read: (r) => ({ type, nonce: r.u64('nonce') }),
  };
}

export const pingCodec = nonceCodec('ping', 0x03);
export const pongCodec = nonceCodec('pong', 0x04);
