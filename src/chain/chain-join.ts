/**
 * The end of opening a chain (src/chain/chain.ts), once its state machine exists: a join's last step — the state
 * machine's rows for the pruning point, then the marker (a crash before it starts the join over; trusted-import.ts)
 * — and the pruner's resume.
 */
import type { BlockId } from '../consensus/ghostdag.ts';
import type { ChainState } from './chain-state.ts';
import type { TrustedData } from './chain-types.ts';
import { joinedOps, type JoinPlan } from './trusted-import.ts';

export async function finishOpen(state: ChainState, join: JoinPlan, trusted: TrustedData | undefined, carried: readonly BlockId[]): Promise<void> {
  const { writer, pruner, joinedAt } = state;
  if (join.importNow) {
    const stateOps = state.machine?.joinAt?.(joinedAt!, trusted!.stateRecord, carried.map((id) => state.index.get(id)!)) ?? [];
    await writer.write(joinedOps(joinedAt!, stateOps));
  }
  if (pruner) {
    // A store written with other parameters, or by an archive, gets its pruning point now; a round owed since the
    // last run (a crash, a shutdown mid-round) resumes.
    const moved = pruner.tipMoved(state.selectedTip);
    if (moved.length > 0) await writer.write(moved);
    pruner.kick();
  }
}
