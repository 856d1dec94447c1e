// Pins consensus output on a fixed regtest fixture: block hashes, transaction ids and state roots of a small DAG that
// carries every implemented transaction kind (transfer, energy-paid transfer, multisig transfer) and a double spend
// in parallel blocks. Refactors of the ledger (transaction kinds as modules, state namespaces) must leave every one of
// these bytes unchanged; a change here is a consensus change and needs its own issue.
import { describe, expect, it } from 'vitest';
import { assembleMultisigTransfer, encodeTransaction, signMultisigShare, type MultisigScript } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { blockHash } from '../../../src/consensus/pow.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { multisigAddress } from '../../../src/crypto/address.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { publicKeyFromPrivate } from '../../../src/crypto/keys.ts';
import { compareBytes, toHex } from '../../../src/util/bytes.ts';
import { makeBlock } from '../../helpers/chain-fixtures.ts';
import { ledgerChain, transfer, wallet } from '../../helpers/ledger-fixtures.ts';

const alice = wallet(11);
const bob = wallet(12);
const carol = wallet(13);
const keys = [wallet(21), wallet(22), wallet(23)];
const script: MultisigScript = { m: 2, publicKeys: keys.map((k) => publicKeyFromPrivate(k.privateKey)).sort(compareBytes) };
const vault = multisigAddress(script.m, script.publicKeys);

function multisigSpend(to: Uint8Array, amount: bigint, nonce: bigint): Uint8Array {
  const unsigned = { kind: TxKind.MultisigTransfer, chainId: regtestParams.chainId, from: vault, to, amount, fee: 2_000n, nonce, useEnergy: false, memo: new TextEncoder().encode('vault') } as const;
  const shares = [keys[2]!, keys[0]!].map((k) => signMultisigShare(unsigned, script, k.privateKey, new Uint8Array(32)));
  return encodeTransaction(assembleMultisigTransfer(unsigned, script, shares));
}

async function buildFixture() {
  const f = await ledgerChain();
  const rows: string[] = [];
  const record = (label: string, id: string) => rows.push(`${label} ${id} root=${toHex(f.chain.get(id)!.header.stateRoot)}`);
  record('m1', await f.mine({ miner: alice.address }));
  record('m2', await f.mine({ miner: alice.address }));
  record('m3', await f.mine({ miner: carol.address }));
  const txs = [
    transfer(alice, bob.address, 5_000_000n, 0n),
    transfer(alice, vault, 9_000_000n, 1n, { memo: new TextEncoder().encode('fund the vault') }),
  ];
  record('b4', await f.mine({ transactions: txs }));
  record('b5', await f.mine({ miner: bob.address }));
  const energy = transfer(alice, carol.address, 1_000n, 2n, { useEnergy: true, fee: 500n });
  const vaultSpend = multisigSpend(carol.address, 1_234_567n, 0n);
  const bobPays = transfer(bob, carol.address, 77_000n, 0n, { fee: 3_000n });
  record('b6', await f.mine({ transactions: [energy, vaultSpend, bobPays] }));
  // alice has no energy yet, so her energy-paid transfer is not accepted: pinned too.
  // A double spend in parallel blocks: exactly one is accepted by the merging block.
  const tip = f.chain.selectedTip().id;
  const toBob = transfer(carol, bob.address, 10_000n, 0n);
  const toAlice = transfer(carol, alice.address, 20_000n, 0n, { fee: 1_500n });
  const p1 = makeBlock(f.chain, { parents: [tip], transactions: [toBob] });
  const p2 = makeBlock(f.chain, { parents: [tip], transactions: [toAlice], miner: bob.address });
  await f.chain.addBlock(p1);
  await f.chain.addBlock(p2);
  record('p1', toHex(blockHash(p1.header)));
  record('p2', toHex(blockHash(p2.header)));
  record('b7', await f.mine({ miner: alice.address }));
  const all = [...txs, energy, vaultSpend, bobPays, toBob, toAlice];
  for (const bytes of all) {
    const t = f.ledger.getTransaction(blake3(bytes))!;
    rows.push(`tx ${toHex(blake3(bytes))} accepted=${t.accepted} status=${t.status}`);
  }
  for (const [name, w] of [['alice', alice.address], ['bob', bob.address], ['carol', carol.address], ['vault', vault]] as const) {
    const a = f.ledger.account(w);
    rows.push(`${name} balance=${a.balance} nonce=${a.nonce} energy=${a.energy}`);
  }
  return rows;
}

// Recorded from the code before transaction kinds became modules (issue 14); see the header comment.
const pinned = [
  'm1 66460a4a3324b03f3e738345328cbebd8a25e65006ec3db95203aadd4c74cba2 root=0000000000000000000000000000000000000000000000000000000000000000',
  'm2 7d4553ab99634d06a87f86e586f9732807aacb747a3d8138e073a074c1920e4b root=880f89851682fde85cfec4d405d4d42ee8f708d5aa56d8c6c86f69ccc6053bbf',
  'm3 4fbca1f92a3278d8f9f5e371293ba7c5dfe51c15d0e30adec2a2240eeb05675c root=9b3d114079f7375e3a3fe4ff0f0a4373bc6927317d2757fb7bbc2bf531faaa5b',
  'b4 6eacb38aad915f3fb0082a36b9027759ecb93ee7859af067a464e764a6991e3a root=866bf6bbcd3b5c85d9b25609eb50717dd897c2c2aaa2ef7a4d3bb6349d807c89',
  'b5 429e075d981cf592db56c8e5d3a28d23c73c2ebf9290514c04bbb99c1c1cd945 root=d29289ae8202a175553392ea9081a367af9f47d9d41924ec17ec06c803f8789f',
  'b6 6735bfe0e2845b1670286664f2dc3ff19ce3f19e0e213f0c1c22327301bc794e root=4549e6cb8f7c04412332e5f7e4536e7b53c0923dbc58210ad5499b4f3e5b4cea',
  'p1 6f8067706bb903b4584473d7f60cc0c50a3f3d17cda58e1296aa19e5e67844b3 root=f411439d4a0d8e64de44c18def4d75d8fcf9d8919cf1a52e8eccd20686704523',
  'p2 2a86bea6ac3a077ea347a7e043000dc5583b4baa214d5b94bde179ad9ce4439e root=f411439d4a0d8e64de44c18def4d75d8fcf9d8919cf1a52e8eccd20686704523',
  'b7 1463e9dc8cb1651235fac018811dddc89a9a9de7fae80d3a9b8cc96fe2c11931 root=8b917da8b41f240bb79c6051071b3ebe34adede2c7fbe452f0be0084cb6930a7',
  'tx e9a22dd7b41edf3d73eac9dda41cfa8bf1cf533bc68aa9d162274cd10d673ef0 accepted=true status=confirmed',
  'tx af3bb7e541d003f7bc1696c8500015631011f4d08d878c0c76ba4c7d3a91ef90 accepted=true status=confirmed',
  'tx 809fa3660bab535a6f5890aae81240bfccf86c18961c9f23eff9ea39e51accef accepted=false status=dropped',
  'tx 3a6fbabb0d203c0a90424d325cf668e66e4ac1a2e727e3f31bc26c4c3d8b87f3 accepted=true status=confirmed',
  'tx a665b0bbff57936e098a8ea74e0cc4cbbb6db333cf7c41d685a40d4612d6a59e accepted=true status=confirmed',
  'tx b8f139bcb4a222e152a4a2a5aea41efcf2bb9d5fa16cb519a45c9c5fa31ee535 accepted=true status=confirmed',
  'tx b25caa66412630f3f9f73951b3c0a9734cd0b8cd8176d9bb96b877367fae33a4 accepted=false status=dropped',
  'alice balance=10969460 nonce=2 energy=0',
  'bob balance=21577640 nonce=1 energy=0',
  'carol balance=9624387 nonce=1 energy=0',
  'vault balance=7763433 nonce=1 energy=0',
];

describe('consensus fixture', () => {
  it('keeps every block hash, transaction id, state root and balance of the fixed regtest DAG', async () => {
    const rows = await buildFixture();
    if (process.env.WEFT_PRINT_FIXTURE) console.log(JSON.stringify(rows, null, 2));
    expect(rows).toEqual(pinned);
  });
});
