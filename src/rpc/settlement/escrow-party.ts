/** The escrow a settlement method acts on, read from the virtual state: an unknown id is refused before signing. */
import { decodeEscrowRecord, type EscrowRecord } from '../../kinds/escrow/escrow-record.ts';
import { ServiceUnavailableError } from '../errors.ts';
import { need, type RpcCallContext } from '../method.ts';
import { parseHex } from '../schemas.ts';
import { rejected } from './agent-submit.ts';

export function escrowAt(ctx: RpcCallContext, escrowIdText: string, method: string): { id: Uint8Array; record: EscrowRecord } {
  const ledger = need(ctx, 'ledger', method);
  if (ledger.stateRecord === undefined) throw new ServiceUnavailableError('ledger (state records)', method);
  const id = parseHex(escrowIdText);
  const value = ledger.stateRecord('escrow', id);
  if (value === undefined) throw rejected('escrow_unknown', `no escrow ${escrowIdText} in the committed state`);
  return { id, record: decodeEscrowRecord(value) };
}
