/** The payload of the escrow kinds that name only their escrow: escrow_id [32]. */
import { toHex } from '../../util/bytes.ts';
import type { PayloadCodec } from '../agent/envelope.ts';
import { escrowIdBytes } from './escrow-record.ts';

export interface EscrowIdPayload {
  readonly escrowId: Uint8Array;
}

export const escrowIdPayload: PayloadCodec<EscrowIdPayload> = {
  bytes: () => escrowIdBytes,
  write: (w, p) => w.bytes(p.escrowId, escrowIdBytes, 'escrow_id'),
  read: (r) => ({ escrowId: r.bytes(escrowIdBytes, 'transaction escrow_id') }),
};

export const escrowIdView = (p: EscrowIdPayload): Record<string, unknown> => ({ escrow_id: toHex(p.escrowId) });
