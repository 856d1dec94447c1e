/**
 * Block-template selection: the best-paying set of pool transactions a block can carry. Greedy by fee rate over
 * sender heads (geth's price-and-nonce order): each sender offers its lowest executable nonce; the best-paying head
 * is taken and that sender's next nonce becomes its head. A head that does not fit the byte or mass budget retires its
 * sender for this block, since nothing later from the same sender may be taken without it.
 *
 * The input is the candidate set (candidates.ts): each sender's executable run, already checked against the virtual
 * state with every kind's state rules, so selection reads no state and a template never overspends, skips a nonce or
 * carries a transaction acceptance would refuse on that state. Cost: O(senders + taken · log senders).
 */
import { blockTxBytes } from '../codec/block.ts';
import { blockMassMax } from '../limits.ts';
import type { MassRules } from '../kinds/kind.ts';
import { kindOf } from '../kinds/registry.ts';
import { massOf } from '../kinds/mass.ts';
import { compareForBlock, sameMassRules, type PoolEntry } from './entry.ts';
import { createHeap } from './heap.ts';

export interface SelectRequest {
  /** Bytes left for transactions in the block, as the block codec writes them (length prefix and bytes: `blockTxBytes`). */
  readonly maxBytes: number;
  readonly maxCount: number;
  /** Mass left for transactions (src/kinds/mass.ts); default the whole block budget. */
  readonly maxMass?: number;
  /**
   * The block's mass rules (src/consensus/activation.ts massRulesAt): an entry admitted under other rules (the block
   * before an activation) is weighed again, so a template never breaks the mass rule of the block it is for. Absent:
   * as admitted.
   */
  readonly massRules?: MassRules;
}

export interface Selection {
  /** In block order: per sender in nonce order, across senders by fee rate. */
  readonly transactions: readonly PoolEntry[];
  /** What the block codec writes for them: each one's length prefix and bytes. */
  readonly bytes: number;
  readonly mass: number;
  readonly fees: bigint;
}

interface Head {
  readonly run: readonly PoolEntry[];
  at: number;
}

/** `runs`: each sender's executable run, in nonce order. */
export function selectTransactions(runs: Iterable<readonly PoolEntry[]>, request: SelectRequest): Selection {
  const heads = createHeap<Head>((a, b) => compareForBlock(a.run[a.at]!, b.run[b.at]!) < 0);
  for (const run of runs) if (run.length > 0) heads.push({ run, at: 0 });
  const transactions: PoolEntry[] = [];
  const maxMass = request.maxMass ?? blockMassMax;
  let bytes = 0;
  let mass = 0;
  let fees = 0n;
  while (transactions.length < request.maxCount) {
    const head = heads.pop();
    if (head === undefined) break;
    const entry = head.run[head.at]!;
    const footprint = blockTxBytes(entry.size);
    const weight = weightFor(entry, request.massRules);
    if (bytes + footprint > request.maxBytes || mass + weight > maxMass) continue;
    transactions.push(entry);
    bytes += footprint;
    mass += weight;
    fees += entry.spend.fee;
    head.at += 1;
    if (head.at < head.run.length) heads.push(head);
  }
  return { transactions, bytes, mass, fees };
}

/** The entry's mass under `rules`: as admitted when they are the rules it was weighed by. */
function weightFor(entry: PoolEntry, rules: MassRules | undefined): number {
  if (rules === undefined || sameMassRules(rules, entry.massRules)) return entry.mass;
  return massOf(kindOf(entry.tx).mass(entry.tx, entry.size, rules), rules);
}
