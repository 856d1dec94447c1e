/**
 * The private account counts nothing on the node's word (issue 34). The scan (private-scan.ts) reads outputs out
 * of get_block's JSON, which a node can invent; here each is proven against the tab's own verified headers, at a
 * block on its selected chain near its tip (src/light/freshness.ts), with the node's existing record proofs:
 *
 * - an output of the account counts as received only once its `confidential_output` record is proven present with
 *   the commitment the scan opened, its maturity read from the record's created DAA score, and its key image proven
 *   absent (`key_image`); anything else is "unverified" and counts for nothing;
 * - a spend counts once the key image's record is proven to name the spending transaction (the acceptance
 *   commitment ring spends have);
 * - a decoy candidate may join a ring only once its record is proven present with the commitment the scan saw.
 *
 * Candidates are proven in the background as the scan meets them (every output alike, so the reads say nothing
 * about which ones the tab will use), a bounded number per refresh.
 */
import type { LightChainView } from '../../src/light/light-chain.ts';
import { verifyRecordProof } from '../../src/light/verify-account.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { getProof } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { checkWhenHeaderKnown } from '../light/proof-wait.ts';

type OutputProof =
  | { readonly state: 'proven'; readonly createdDaaScore: bigint; readonly blockHeight: number }
  | { readonly state: 'spent'; readonly txHash: string; readonly blockHeight: number }
  | { readonly state: 'absent' | 'changed'; readonly blockHeight: number }
  | { readonly state: 'failed'; readonly reason: string };

/** What the private account asks of the verified chain (a port, so tests can drive it with a real light chain). */
export interface PrivateProver {
  /** An output of the account: present with `commitment` and its key image unspent, or spent (and by what). */
  proveOutput(oneTimeKey: string, commitment: string, keyImage: string): Promise<OutputProof>;
  /** A decoy candidate: present with `commitment` (its created DAA score), or not. */
  proveRecord(oneTimeKey: string, commitment: string): Promise<OutputProof>;
  /** The spend of `keyImage`: the transaction its record names, or undefined while none is proven. */
  proveSpend(keyImage: string): Promise<string | undefined>;
  /** The DAA score of the tab's verified selected tip (maturity is counted against it, never the node's). */
  tipDaaScore(): number;
}

export function createPrivateProver(chain: LightChainView, link: RpcClient): PrivateProver {
  const prove = async <N extends 'confidential_output' | 'key_image'>(namespace: N, id: string) => {
    const outcome = await checkWhenHeaderKnown(
      () => getProof(link, { namespace, id: `0x${id}` }),
      (proof) => verifyRecordProof(chain, namespace, fromHex(id), proof),
    );
    return outcome;
  };
  const proveRecord = async (oneTimeKey: string, commitment: string): Promise<OutputProof> => {
    const output = await prove('confidential_output', oneTimeKey);
    if (!output.ok) return { state: 'failed', reason: `${output.error.reason}: ${output.error.message}` };
    const record = output.value.record as { commitment: Uint8Array; createdDaaScore: bigint } | null;
    if (record === null) return { state: 'absent', blockHeight: output.value.blockHeight };
    if (toHex(record.commitment) !== commitment) return { state: 'changed', blockHeight: output.value.blockHeight };
    return { state: 'proven', createdDaaScore: record.createdDaaScore, blockHeight: output.value.blockHeight };
  };
  return {
    proveRecord,
    async proveOutput(oneTimeKey, commitment, keyImage) {
      const output = await proveRecord(oneTimeKey, commitment);
      if (output.state !== 'proven') return output;
      const image = await prove('key_image', keyImage);
      if (!image.ok) return { state: 'failed', reason: `${image.error.reason}: ${image.error.message}` };
      const spent = image.value.record as { txHash: Uint8Array } | null;
      return spent === null ? output : { state: 'spent', txHash: toHex(spent.txHash), blockHeight: image.value.blockHeight };
    },
    async proveSpend(keyImage) {
      const image = await prove('key_image', keyImage);
      const spent = image.ok ? (image.value.record as { txHash: Uint8Array } | null) : null;
      return spent === null ? undefined : toHex(spent.txHash);
    },
    tipDaaScore: () => Number(chain.selectedTip().header.daaScore),
  };
}
