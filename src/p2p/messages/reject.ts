/** `reject` (0x0F): sent before a disconnect we cause, with the error code and ban score that caused it. */
import { p2pRejectTextBytesMax } from '../limits.ts';
import type { MessageCodec } from './message-codec.ts';
import { readText, writeText } from './text-field.ts';

type RejectMessage = { readonly type: 'reject'; readonly code: number; readonly banScore: number; readonly text: string };

export const rejectCodec: MessageCodec<RejectMessage> = {
  type: 'reject',
  code: 0x0f,
  payloadBytesMax: 16 + p2pRejectTextBytesMax,
  write(w, m) {
    // Error codes are negative (JSON-RPC style): the wire holds their magnitude.
    w.u32(-m.code, 'reject code');
    w.u8(m.banScore, 'reject banScore');
    writeText(w, m.text.slice(0, p2pRejectTextBytesMax / 4), p2pRejectTextBytesMax, 'reject text');
  },
  read(r) {
    const code = 0 - r.u32('reject code');
    const banScore = r.u8('reject banScore');
    return { type: 'reject', code, banScore, text: readText(r, p2pRejectTextBytesMax, 'reject text') };
  },
};
