/**
 * Proving one wallet history row (issue 34). The node's events and get_transaction are hints; what the row shows
 * as verified is the tab's own reading:
 *
 * - **Bound**: the transaction's bytes (hash checked, Merkle path to a verified header's tx root,
 *   src/light/verify-transaction.ts) must name the row's address as a party; direction, amount and counterparty
 *   come from those bytes. A row whose bytes do not name its address is deleted: a stranger's transaction is no
 *   row of this wallet.
 * - **Accepted**: today's headers commit no list of accepted transactions, only state. What is provable is the
 *   payer's account nonce: a transfer with nonce N is accepted only if the account's nonce was N when it was
 *   accepted, and acceptance advances it. So the row turns `confirmed` when a current proof (src/light/freshness.ts)
 *   shows the payer's nonce past N after this tab saw it at or below N — for the tab's own sends at signing
 *   (their nonce came from a proven nonce), for incoming ones at the first look while pending or carried. A
 *   transaction whose nonce had already passed when the tab first looked (e.g. one carried with a used nonce and
 *   refused) cannot be told apart from an accepted one: it stays `unconfirmed`, never a payment. `final` once the
 *   block that proved acceptance is more than the finality depth below the tab's selected tip, on its chain.
 *   The residue, documented in docs/wallet.md: a payer who signs two transactions with one nonce can have the
 *   other accepted; the proven balance is the authority either way.
 */
import { decodeAddress, encodeAddress } from '../../src/crypto/address.ts';
import { formatUnits } from '../../src/crypto/amount.ts';
import { kindOf } from '../../src/kinds/registry.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import type { VerifiedTransaction } from '../../src/light/verify-transaction.ts';
import { equalBytes } from '../../src/util/bytes.ts';
import { fetchVerifiedBalance } from '../light/verified-balance.ts';
import { fetchVerifiedTransaction } from '../light/verified-transaction.ts';
import type { RpcClient } from '../lib/node-client.ts';
import type { HistoryRow } from './wallet-db.ts';

/** What the bytes say about the row's address; undefined when they do not name it. */
function bindRow(chain: Pick<LightChainView, 'params'>, row: HistoryRow, verified: VerifiedTransaction) {
  const { tx } = verified;
  const kind = kindOf(tx);
  const own = decodeAddress(row.address, chain.params.hrp);
  const parties = kind.parties(tx);
  const sent = parties.some((p) => p.role === 'sender' && equalBytes(p.address, own));
  const received = parties.find((p) => p.role === 'recipient' && equalBytes(p.address, own));
  if (!sent && !received) return undefined;
  const spend = kind.spend(tx);
  const type: HistoryRow['type'] = sent && received ? 'self' : sent ? 'outgoing' : 'incoming';
  const other = parties.find((p) => !equalBytes(p.address, own));
  return {
    type,
    amount: formatUnits(type === 'incoming' ? received!.amount : spend.amount),
    counterparty: other ? encodeAddress(chain.params.hrp, other.address) : row.address,
    // Kinds with no transparent payer (ring spends) have no nonce to watch.
    payer: spend.feeFromCommitments === true ? undefined : encodeAddress(chain.params.hrp, spend.payer),
    payerNonce: spend.nonce,
  };
}

/**
 * Looks at the payer's proven nonce while the row is pending (payer and nonce from get_transaction: only which
 * account to look at — the bytes are checked against them once proven). Returns the row with `nonceSeenBelow` set
 * when a current proof shows the nonce at or below the transaction's.
 */
export async function watchPendingPayer(link: RpcClient, chain: LightChainView, row: HistoryRow, payer: string | undefined, nonce: bigint | undefined): Promise<HistoryRow> {
  if (row.nonceSeenBelow || payer === undefined || nonce === undefined) return row;
  const proven = await fetchVerifiedBalance(chain, link, payer);
  if (!proven.ok || proven.account.nonce > nonce) return row;
  return { ...row, payer, payerNonce: String(nonce), nonceSeenBelow: true };
}

/** Whether the block that proved acceptance is still on the selected chain (a reorganisation takes it back). */
const stillAccepted = (chain: LightChainView, row: HistoryRow): boolean =>
  row.acceptedAt !== undefined && chain.blockAtHeight(row.acceptedAt.height)?.id === row.acceptedAt.hash.slice(2);

/**
 * Proves a row carried in a block: inclusion, binding, then acceptance. Returns undefined when the bytes do not
 * name the row's address (the caller deletes it), else the row as proven so far.
 */
export async function proveHistoryRow(link: RpcClient, chain: LightChainView, row: HistoryRow): Promise<HistoryRow | undefined> {
  let next = row;
  if (next.proof !== 'included' && next.proof !== 'verified') {
    const result = await fetchVerifiedTransaction(chain, link, row.hash);
    if (!result.ok) return { ...row, status: 'pending', proof: 'failed', proofNote: `${result.error.reason}: ${result.error.message}` };
    const bound = bindRow(chain, row, result.transaction);
    if (bound === undefined) return undefined;
    const { payer, payerNonce, ...shown } = bound;
    // A payer or nonce seen while pending that the bytes contradict was the node's: the watch starts again.
    const watched = row.own === true || (row.nonceSeenBelow === true && row.payer === payer && BigInt(row.payerNonce ?? -1) <= payerNonce);
    next = {
      ...row, ...shown, status: 'pending', proof: 'included', nonceSeenBelow: watched,
      ...(payer === undefined ? {} : { payer, payerNonce: String(payerNonce) }),
      proofNote: `in verified block ${result.transaction.blockHash} (height ${result.transaction.blockHeight}); acceptance not proven yet`,
    };
  }
  if (next.acceptedAt !== undefined && !stillAccepted(chain, next)) {
    const { acceptedAt: _dropped, ...rest } = next;
    next = { ...rest, status: 'pending', proof: 'included' };
  }
  if (next.acceptedAt === undefined) next = await proveAcceptance(link, chain, next);
  if (next.acceptedAt !== undefined) {
    const final = chain.selectedTip().height - next.acceptedAt.height > chain.params.finalityDepth;
    next = { ...next, status: final ? 'final' : 'confirmed' };
  }
  return next;
}

async function proveAcceptance(link: RpcClient, chain: LightChainView, row: HistoryRow): Promise<HistoryRow> {
  if (row.payer === undefined || row.payerNonce === undefined) {
    return { ...row, status: 'unconfirmed', proofNote: `${row.proofNote ?? ''}; no payer nonce to prove its acceptance by` };
  }
  const proven = await fetchVerifiedBalance(chain, link, row.payer);
  if (!proven.ok) return row;
  const nonce = BigInt(row.payerNonce);
  const { account } = proven;
  if (account.nonce <= nonce) return { ...row, nonceSeenBelow: true, status: 'pending' };
  if (row.nonceSeenBelow !== true) {
    return {
      ...row, status: 'unconfirmed',
      proofNote: `in a verified block, but the payer's nonce had passed ${nonce} before this tab watched it: a transaction carried with a used nonce is refused, so acceptance is not proven`,
    };
  }
  return {
    ...row, proof: 'verified',
    acceptedAt: { hash: account.blockHash, height: account.blockHeight, timestampMs: account.timestampMs },
    proofNote: `${(row.proofNote ?? '').replace(/; acceptance not proven yet$/, '')}; accepted: the payer's nonce passed ${nonce} in the state of verified block ${account.blockHash} (height ${account.blockHeight})`,
  };
}
