/**
 * get_balance of a stealth address (docs/api.md "get_balance views"): a stealth address has no transparent state,
 * so its figures are its unspent confidential outputs, which only the node holding its keys can list.
 *   owner     — the outputs with their decrypted amounts and their sum as the balance.
 *   encrypted — the outputs as the chain stores them (commitment, encrypted amount): what only the view key opens.
 *   public    — nothing: zero, since nothing on chain is linked to a stealth address.
 */
import { formatUnits, unitsToCoins } from '../../crypto/amount.ts';
import { toHash0x, toHex } from '../../util/bytes.ts';
import { PrivacyError } from '../errors.ts';
import { need, type RpcCallContext } from '../method.ts';

export function stealthBalance(ctx: RpcCallContext, address: string, view: 'owner' | 'public' | 'encrypted') {
  const zero = { balance: 0, balance_exact: '0', pending_balance: 0, pending_balance_exact: '0', energy: 0, energy_exact: '0', nonce: 0, nonce_exact: '0' };
  if (view === 'public') return { address, ...zero, privacy_view: 'public' };
  const owned = need(ctx, 'privacy', 'get_balance').ownedOutputs(address);
  if (owned === undefined) throw new PrivacyError('the owner and encrypted views of a stealth address need its keys, and this node holds none for it', 'not_in_wallet');
  const total = owned.reduce((sum, o) => sum + o.amount, 0n);
  const outputs = owned.map((o) => ({
    one_time_key: toHash0x(o.oneTimeKey),
    commitment: toHash0x(o.commitment),
    amount_kind: o.amountKind,
    ...(o.amountKind === 'hidden' ? { encrypted_amount: `0x${toHex(o.storedAmount)}` } : {}),
    ...(view === 'owner' || o.amountKind === 'public' ? { amount_exact: formatUnits(o.amount) } : {}),
    mature: o.mature,
    tx_hash: toHash0x(o.txHash),
  }));
  if (view === 'encrypted') return { address, ...zero, privacy_view: 'encrypted', confidential_outputs: outputs };
  const coins = unitsToCoins(total);
  const exact = formatUnits(total);
  return {
    address,
    ...zero,
    balance: coins,
    balance_exact: exact,
    pending_balance: coins,
    pending_balance_exact: exact,
    privacy_view: 'owner',
    confidential_balance: coins,
    confidential_balance_exact: exact,
    confidential_outputs: outputs,
  };
}
