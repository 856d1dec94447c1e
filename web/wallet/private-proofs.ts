/**
 * Before the tab spends an output it proves, against headers its own light node verified (web/light/), that the
 * output is in the state with the commitment the tab will sign for and that its key image is absent (unspent):
 * `get_proof` on the `confidential_output` and `key_image` namespaces, checked with verifyRecordProof. So neither a
 * reorganisation that dropped an output after the scan saw it nor a node that lied in get_block makes the tab sign
 * a transaction consensus would refuse; the proven record's created DAA score also settles maturity exactly. Every
 * drawn decoy is proven present with its commitment the same way, the real inputs' and the decoys' record reads in
 * one shuffled sequence, so the reads do not single out the real ring member.
 */
import { isMature } from '../../src/kinds/confidential/rules.ts';
import type { LightChainView } from '../../src/light/light-chain.ts';
import { verifyRecordProof } from '../../src/light/verify-account.ts';
import { fromHex, toHex } from '../../src/util/bytes.ts';
import { getProof } from '../../packages/client/src/index.ts';
import type { RpcClient } from '../lib/node-client.ts';
import { checkWhenHeaderKnown } from '../light/proof-wait.ts';
import { FieldError } from './form-errors.ts';
import type { PrivateOutputRow } from './private-scan.ts';

const short = (hex: string): string => `0x${hex.slice(0, 10)}…`;

async function proven<N extends 'confidential_output' | 'key_image'>(chain: LightChainView, link: RpcClient, namespace: N, id: string) {
  const outcome = await checkWhenHeaderKnown(
      () => getProof(link, { namespace, id: `0x${id}` }),
      (proof) => verifyRecordProof(chain, namespace, fromHex(id), proof),
    );
  if (!outcome.ok) throw new Error(`cannot send: the ${namespace} proof of ${short(id)} failed (${outcome.error.reason}: ${outcome.error.message})`);
  return outcome.value;
}

/** A Fisher–Yates shuffle over the CSPRNG. */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0]! % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Throws a FieldError about the amount when an input or a drawn decoy is gone, changed or not mature at
 * `nextDaaScore`, or an input is spent.
 */
export async function proveInputsSpendable(
  chain: LightChainView,
  link: RpcClient,
  inputs: readonly PrivateOutputRow[],
  nextDaaScore: number,
  chainId: number,
  decoys: readonly { oneTimeKey: Uint8Array; commitment: Uint8Array }[] = [],
): Promise<void> {
  const members = [
    ...inputs.map((row) => ({ oneTimeKey: row.oneTimeKey, commitment: row.commitment, what: 'output' })),
    ...decoys.map((d) => ({ oneTimeKey: toHex(d.oneTimeKey), commitment: toHex(d.commitment), what: 'decoy' })),
  ];
  for (const member of shuffled(members)) {
    const output = await proven(chain, link, 'confidential_output', member.oneTimeKey);
    const record = output.record as { commitment: Uint8Array; createdDaaScore: bigint } | null;
    if (record === null || toHex(record.commitment) !== member.commitment) {
      throw new FieldError('amount', `${member.what} ${short(member.oneTimeKey)} is not in the state verified at block ${output.blockHeight} (a reorganisation may have dropped it); wait for the next scan`, 'privacy_error');
    }
    if (!isMature(record.createdDaaScore, nextDaaScore, chainId)) {
      throw new FieldError('amount', `${member.what} ${short(member.oneTimeKey)} matures at DAA score ${record.createdDaaScore} + maturity; try again after the next block`, 'privacy_error');
    }
  }
  for (const row of inputs) {
    const image = await proven(chain, link, 'key_image', row.keyImage);
    if (image.exists) throw new FieldError('amount', `output ${short(row.oneTimeKey)} is spent already (its key image is in the state at block ${image.blockHeight}); wait for the next scan`, 'privacy_error');
  }
}
