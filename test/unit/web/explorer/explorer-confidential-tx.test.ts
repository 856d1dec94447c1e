// The explorer's confidential section (web/explorer/confidential-tx.ts) on the node's own JSON view of a real
// confidential transfer and shield: every public part is there (key images, pseudo-outputs, ring members linked to
// their output pages, one-time keys, view tags, commitments, tx public key, ring size), hidden amounts say so, and
// nothing the view hides appears.
import { describe, expect, it } from 'vitest';
import { regtestParams } from '../../../../src/consensus/params.ts';
import { toHex } from '../../../../src/util/bytes.ts';
import { blockTransactionJson } from '../../../../src/rpc/views.ts';
import { buildRingSpend, buildShield, scanOutput } from '../../../../src/wallet/confidential.ts';
import { confidentialTxSection, shownByConfidentialSection } from '../../../../web/explorer/confidential-tx.ts';
import { chainId, seededRandom, stealthWallet } from '../../../helpers/confidential-fixtures.ts';
import { wallet } from '../../../helpers/ledger-fixtures.ts';

const hrp = regtestParams.hrp;
const alice = wallet(50);
const bob = stealthWallet(51);
const carol = stealthWallet(52);
const shield = buildShield({ chainId, privateKey: alice.privateKey, fee: 1_000n, nonce: 0n, outputs: [{ to: bob.recipient, amount: 123_456_789n }, { to: carol.recipient, amount: 5_000n }], random: seededRandom(9) });
const owned = scanOutput(bob.keys, shield.txPublicKey, 0, { ...shield.outputs[0]!, publicAmount: 123_456_789n })!;
const decoy = scanOutput(carol.keys, shield.txPublicKey, 1, { ...shield.outputs[1]!, publicAmount: 5_000n })!;
const transfer = buildRingSpend({
  chainId,
  fee: 10_000n,
  inputs: [{ owned, decoys: [{ oneTimeKey: decoy.oneTimeKey, commitment: decoy.commitment }] }],
  outputs: [{ to: carol.recipient, amount: 100_000_000n }, { to: bob.recipient, amount: 23_446_789n }],
  random: seededRandom(10),
});

describe('the explorer confidential section', () => {
  it('shows a confidential transfer\'s public parts and no amount or sender', () => {
    const json = blockTransactionJson(transfer, hrp) as Record<string, unknown>;
    const html = confidentialTxSection(json);
    expect(html).toContain('What is public');
    expect(html).toContain(`0x${toHex(transfer.inputs[0]!.keyImage)}`);
    expect(html).toContain(`0x${toHex(transfer.inputs[0]!.pseudoOut)}`);
    for (const member of transfer.inputs[0]!.ring) expect(html).toContain(`href="#/output/0x${toHex(member.oneTimeKey)}"`);
    for (const output of transfer.outputs) {
      expect(html).toContain(`0x${toHex(output.oneTimeKey)}`);
      expect(html).toContain(`0x${toHex(output.commitment)}`);
      expect(html).toContain(`>${output.viewTag}<`);
    }
    expect(html.match(/hidden \(encrypted\)/g)).toHaveLength(2);
    expect(html).not.toMatch(/\b1(\.0+)? WEFT|0\.23446789|rweft1/);
    expect(json.from).toBeUndefined();
    expect(shownByConfidentialSection(json, 'inputs')).toBe(true);
    expect(shownByConfidentialSection({ kind: 'transfer' }, 'inputs')).toBe(false);
  });

  it('shows a shield\'s public amounts and nothing for other kinds', () => {
    const html = confidentialTxSection(blockTransactionJson(shield, hrp) as Record<string, unknown>);
    expect(html).toContain('1.23456789');
    expect(html).not.toContain('hidden (encrypted)');
    expect(confidentialTxSection({ kind: 'transfer', amount: 1 })).toBe('');
  });
});
