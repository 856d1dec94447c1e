/**
 * The RPC's LedgerView (src/rpc/ports.ts) over the ledger (src/state/ledger.ts): account state at the virtual,
 * the transaction index, account and namespaced record proofs, supply and acceptance events, converted to the
 * port's byte/bigint shapes.
 */
import type { Chain } from '../../src/chain/chain.ts';
import type { Ledger } from '../../src/state/ledger.ts';
import type { TransactionRecord as LedgerRecord } from '../../src/state/tx-index.ts';
import type { LedgerView, TransactionRecord } from '../../src/rpc/ports.ts';
import { fromHex } from '../../src/util/bytes.ts';
import { TxKind } from '../../src/codec/transaction-kinds.ts';
import type { AnyTransaction } from '../../src/kinds/transaction-codec.ts';

const isContractKind = (tx: AnyTransaction): boolean => tx.kind === TxKind.ContractDeploy || tx.kind === TxKind.ContractCall;

export function createLedgerPort(ledger: Ledger, chain: Chain): LedgerView {
  const toRecord = (r: LedgerRecord): TransactionRecord => {
    const carrier = chain.get(r.block);
    const receipt = r.acceptingBlock && isContractKind(r.tx) ? ledger.contractReceipt(r.acceptingBlock.hash, fromHex(r.hash)) : undefined;
    return {
      hash: fromHex(r.hash),
      tx: r.tx,
      status: r.status,
      blockHash: carrier?.hash,
      acceptingBlockHash: r.acceptingBlock?.hash,
      timestampMs: carrier?.header.timestampMs ?? 0,
      energyUsed: r.energyUsed,
      ...(receipt ? { receipt } : {}),
    };
  };

  return {
    account: (address) => ledger.getAccount(address),
    getTransaction(hash) {
      const record = ledger.getTransaction(hash);
      return record ? toRecord(record) : undefined;
    },
    history(address, page) {
      const items = ledger.getAddressHistory(address, page.limit, page.offset).flatMap((entry) => {
        const record = ledger.getTransaction(fromHex(entry.hash));
        return record ? [toRecord(record)] : [];
      });
      return { total: ledger.countAddressHistory(address), items };
    },
    rewards(address, page) {
      const items = ledger.getAddressRewards(address, page.limit, page.offset).map((r) => {
        const block = chain.get(r.block);
        return {
          blockHash: fromHex(r.block),
          blockHeight: block?.height ?? r.acceptingBlock?.height ?? 0,
          blue: r.blue,
          subsidyUnits: r.subsidy,
          feesUnits: r.fees,
          timestampMs: block?.header.timestampMs ?? r.acceptingBlock?.header.timestampMs ?? 0,
          acceptingBlockHash: r.acceptingBlock?.hash ?? null,
          acceptingHeight: r.acceptingBlock?.height ?? null,
          confirmations: r.confirmations,
        };
      });
      return { total: ledger.countAddressRewards(address), items };
    },
    proof(address) {
      const proof = ledger.proveAccount(address);
      return { stateRoot: proof.stateRoot, blockHash: fromHex(proof.blockHash), key: proof.key, proof: proof.proof };
    },
    proveRecord(namespace, id) {
      const proof = ledger.proveRecord(namespace, id);
      return { stateRoot: proof.stateRoot, blockHash: fromHex(proof.blockHash), key: proof.key, proof: proof.proof, exists: proof.record !== null };
    },
    contractRecord: (namespace, id) => ledger.getRecord(namespace, id),
    stateRecord: (namespace, id) => ledger.getRecord(namespace, id),
    supply() {
      const s = ledger.supply();
      return { totalUnits: s.totalUnits, circulatingUnits: s.circulatingUnits, burntUnits: s.burntUnits, feesTotalUnits: s.feesTotalUnits };
    },
    counters: () => ({ totalTransactions: Number(ledger.supply().acceptedTransactions) }),
    onAccepted(listener) {
      return ledger.onAcceptance((event) => {
        if (!event.added.some((block) => block.accepted.length > 0)) return;
        listener(() => {
          const records: TransactionRecord[] = [];
          for (const block of event.added) {
            for (const ref of block.accepted) {
              const record = ledger.getTransaction(ref.hash);
              if (record) records.push(toRecord(record));
            }
          }
          return records;
        });
      });
    },
  };
}
