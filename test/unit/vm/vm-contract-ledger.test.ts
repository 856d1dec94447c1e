// The contract kinds on a real ledger chain: a token deployed and called in mined blocks, fees of exactly
// gas used × gas price, a revert that pays and changes nothing else, a refused module and a call to no contract,
// and the contract's storage proven against a header like a balance (docs/contracts.md "Transactions").
import { describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../../src/kinds/transaction-codec.ts';
import { TxKind } from '../../../src/codec/transaction-kinds.ts';
import { regtestParams } from '../../../src/consensus/params.ts';
import { contractAddress } from '../../../src/crypto/address.ts';
import { blake3 } from '../../../src/crypto/blake3.ts';
import { contractCallKind, signContractCall } from '../../../src/kinds/contract-call.ts';
import { contractDeployKind, signContractDeploy } from '../../../src/kinds/contract-deploy.ts';
import { verifyStateRecord } from '../../../src/state/proof-verify.ts';
import { toHex } from '../../../src/util/bytes.ts';
import { encodeAbiValues, type AbiValue } from '../../../src/vm/abi.ts';
import { contractHeaderId, contractStorageId, decodeContractHeader, decodeContractValue } from '../../../src/vm/contract-state.ts';
import { callIntrinsicGas, deployIntrinsicGas } from '../../../src/vm/gas-schedule.ts';
import { contractBytes, goldenGas } from '../../helpers/vm-contracts.ts';
import { ledgerChain, wallet, type LedgerFixture } from '../../helpers/ledger-fixtures.ts';
import { runModule } from '../../helpers/wasm-module.ts';

const alice = wallet(1);
const bob = wallet(2);
const miner = wallet(3);
const aux = new Uint8Array(32);
const u64 = (value: bigint): AbiValue => ({ type: 'u64', value });
const address = (value: Uint8Array): AbiValue => ({ type: 'address', value });
const common = { chainId: regtestParams.chainId, gasPrice: 2n, value: 0n, useEnergy: false };

function deploy(nonce: bigint, code: Uint8Array, params: AbiValue[], gasLimit = 5_000_000n, value = 0n): Uint8Array {
  const tx = signContractDeploy({ kind: TxKind.ContractDeploy, ...common, value, from: alice.address, nonce, gasLimit, vmVersion: 1, code, params: encodeAbiValues(params) }, alice.privateKey, aux);
  return encodeTransaction(tx);
}

function call(nonce: bigint, contract: Uint8Array, method: string, params: AbiValue[], gasLimit = 1_000_000n): Uint8Array {
  const tx = signContractCall({ kind: TxKind.ContractCall, ...common, from: alice.address, nonce, gasLimit, contract, method, params: encodeAbiValues(params) }, alice.privateKey, aux);
  return encodeTransaction(tx);
}

const u64le = (n: bigint): string => toHex(new Uint8Array(new BigUint64Array([n]).buffer));

async function mineWith(f: LedgerFixture, tx: Uint8Array): Promise<{ accepted: boolean }> {
  await f.mine({ miner: miner.address, transactions: [tx] });
  await f.mine({ miner: miner.address });
  return { accepted: f.ledger.getTransaction(blake3(tx))!.accepted };
}

describe('contract transactions', () => {
  it('round-trip through the codec and sign over their body', () => {
    const d = deploy(0n, contractBytes('counter'), [u64(5n)]);
    expect(contractDeployKind.encode(contractDeployKind.decode(d))).toEqual(d);
    const c = call(1n, contractAddress(alice.address, 0n), 'increment', []);
    expect(contractCallKind.encode(contractCallKind.decode(c))).toEqual(c);
    expect(() => contractCallKind.decode(Uint8Array.of(...c, 0))).toThrow(/trailing/);
    const bad = Uint8Array.from(c);
    bad[1 + 4 + 33 + 33 + 32 + 1 + 1] = '-'.charCodeAt(0); // the method's first character
    expect(() => contractCallKind.decode(bad)).toThrow(/method/);
  });

  it('deploy a token, transfer, revert an overdraft: fees are gas used × gas price, state is provable', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    const funded = f.ledger.account(alice.address).balance;
    const token = contractBytes('token');
    const tokenAddress = contractAddress(alice.address, 0n);

    const deployTx = deploy(0n, token, [u64(1_000_000n)]);
    expect(await mineWith(f, deployTx)).toEqual({ accepted: true });
    const deployGas = deployIntrinsicGas(token.length, 9) + goldenGas.tokenInit;
    expect(f.ledger.account(alice.address)).toMatchObject({ nonce: 1n, balance: funded - 2n * deployGas });
    const header = decodeContractHeader(f.ledger.getRecord('contract_storage', contractHeaderId(tokenAddress))!);
    expect(header).toEqual({ codeHash: blake3(token), codeBytes: token.length, vmVersion: 1, deployer: alice.address });
    expect(decodeContractValue(f.ledger.getRecord('contract_code', header.codeHash)!)).toEqual(token.subarray(0, 4_000));
    const balanceOf = (who: Uint8Array) => f.ledger.getRecord('contract_storage', contractStorageId(tokenAddress, 'balances', who));
    expect(toHex(decodeContractValue(balanceOf(alice.address)!))).toBe(u64le(1_000_000n));

    const transferTx = call(1n, tokenAddress, 'transfer', [address(bob.address), u64(250n)]);
    expect(await mineWith(f, transferTx)).toEqual({ accepted: true });
    const transferGas = callIntrinsicGas('transfer'.length, 34 + 9) + goldenGas.tokenTransfer;
    expect(f.ledger.account(alice.address)).toMatchObject({ nonce: 2n, balance: funded - 2n * (deployGas + transferGas) });
    expect(toHex(decodeContractValue(balanceOf(bob.address)!))).toBe(u64le(250n));

    const overdraftTx = call(2n, tokenAddress, 'transfer', [address(bob.address), u64(10_000_000n)]);
    expect(await mineWith(f, overdraftTx)).toEqual({ accepted: true });
    expect(f.ledger.account(alice.address).nonce).toBe(3n);
    expect(f.ledger.account(alice.address).balance < funded - 2n * (deployGas + transferGas)).toBe(true);
    expect(toHex(decodeContractValue(balanceOf(bob.address)!))).toBe(u64le(250n));

    // Bob's token balance, proven against the selected tip's header like an account.
    await f.mine({ miner: miner.address });
    const id = contractStorageId(tokenAddress, 'balances', bob.address);
    const proven = f.ledger.proveRecord('contract_storage', id);
    expect(proven.stateRoot).toEqual(f.chain.selectedTip().header.stateRoot);
    const verified = verifyStateRecord({ stateRoot: proven.stateRoot, namespace: 'contract_storage', id, proof: proven.proof });
    expect(verified.exists && toHex(verified.record.bytes)).toBe(u64le(250n));
    const absent = contractStorageId(tokenAddress, 'balances', miner.address);
    const none = f.ledger.proveRecord('contract_storage', absent);
    expect(verifyStateRecord({ stateRoot: none.stateRoot, namespace: 'contract_storage', id: absent, proof: none.proof }).exists).toBe(false);
  });

  it('a refused module leaves no contract and pays its intrinsic gas; a call to no contract is not accepted', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    const funded = f.ledger.account(alice.address).balance;
    const floaty = runModule([0xa8]);
    expect(await mineWith(f, deploy(0n, floaty, []))).toEqual({ accepted: true });
    expect(f.ledger.account(alice.address)).toMatchObject({ nonce: 1n, balance: funded - 2n * deployIntrinsicGas(floaty.length, 0) });
    expect(f.ledger.getRecord('contract_storage', contractHeaderId(contractAddress(alice.address, 0n)))).toBeUndefined();

    expect(await mineWith(f, call(1n, contractAddress(alice.address, 0n), 'get', []))).toEqual({ accepted: false });
    expect(f.ledger.account(alice.address).nonce).toBe(1n);
  });

  it('an escrow holds the deploy value in its account and releases it to the beneficiary', async () => {
    const f = await ledgerChain();
    await f.mine({ miner: alice.address });
    await f.mine({ miner: alice.address });
    const escrow = contractAddress(alice.address, 0n);
    expect(await mineWith(f, deploy(0n, contractBytes('escrow'), [address(bob.address)], 5_000_000n, 70_000n))).toEqual({ accepted: true });
    expect(f.ledger.account(escrow).balance).toBe(70_000n);
    expect(await mineWith(f, call(1n, escrow, 'release', []))).toEqual({ accepted: true });
    expect(f.ledger.account(escrow).balance).toBe(0n);
    expect(f.ledger.account(bob.address).balance).toBe(70_000n);
    // Settled: a second release reverts and moves nothing (the fee is still paid).
    expect(await mineWith(f, call(2n, escrow, 'release', []))).toEqual({ accepted: true });
    expect(f.ledger.account(bob.address).balance).toBe(70_000n);
    expect(f.ledger.account(alice.address).nonce).toBe(3n);
  });
});
