/**
 * A balance with its proof status. The account is read from a `get_proof` answer only after the proof hashes to
 * the state root of a header; a proof that fails is reported as `failed` with the reason and never as a balance.
 *
 * Which header: part A's light node (web/light/verified-balance.ts) checks against headers the tab verified itself.
 * Until that lands, this checks the proof against the state root of the header the node serves for the proof's
 * block (`get_block` by hash) — the proof itself is still verified in the tab (src/state/proof-verify.ts).
 */
import { decodeAddress } from '../../src/crypto/address.ts';
import { accountKey, decodeAccount, emptyStoredAccount, type StoredAccount } from '../../src/state/account-codec.ts';
import { proofFromJson } from '../../src/state/proof.ts';
import { verifyProof } from '../../src/state/proof-verify.ts';
import { equalBytes, fromHex, toHash0x } from '../../src/util/bytes.ts';
import type { NodeClient } from '../lib/node-client.ts';

export type BalanceStatus =
  | { readonly status: 'verified'; readonly account: StoredAccount; readonly blockHash: string; readonly height: number | null }
  | { readonly status: 'failed'; readonly error: string };

interface ProofAnswer {
  readonly key: string;
  readonly state_root: string;
  readonly block_hash: string;
  readonly block_height: number | null;
  readonly proof: unknown;
}

const strip0x = (hex: string): string => (hex.startsWith('0x') ? hex.slice(2) : hex);

/** Checks a get_proof answer for `address` against `stateRoot` (bytes from a header) — pure, for tests and reuse. */
export function accountFromProof(address: Uint8Array, answer: ProofAnswer, stateRoot: Uint8Array): StoredAccount {
  const key = accountKey(address);
  if (!equalBytes(key, fromHex(strip0x(answer.key)))) throw new Error(`proof is for key ${answer.key}, expected ${toHash0x(key)}`);
  const result = verifyProof(stateRoot, key, proofFromJson(answer.proof));
  return result.exists ? decodeAccount(result.value) : emptyStoredAccount;
}

export async function fetchVerifiedBalance(link: NodeClient, addressText: string, hrp: string): Promise<BalanceStatus> {
  try {
    const address = decodeAddress(addressText, hrp);
    const answer = await link.call<ProofAnswer>('get_proof', { address: addressText });
    const header = await link.call<{ state_root: string }>('get_block', { hash: answer.block_hash, include_transactions: false });
    const root = fromHex(strip0x(header.state_root));
    if (!equalBytes(root, fromHex(strip0x(answer.state_root)))) {
      throw new Error(`proof claims state root ${answer.state_root}, block ${answer.block_hash} commits to ${header.state_root}`);
    }
    const account = accountFromProof(address, answer, root);
    return { status: 'verified', account, blockHash: answer.block_hash, height: answer.block_height };
  } catch (error) {
    return { status: 'failed', error: error instanceof Error ? error.message : String(error) };
  }
}
