/**
 * The settlement follower on a node (src/a2a/settlement-follower.ts): tasks a previous process finished are resumed,
 * and every acceptance runs a pass over the ledger's new state. Closing the service stops it.
 */
import type { SettlementFollower } from '../../../src/a2a/settlement-follower.ts';
import type { Ledger } from '../../../src/state/ledger.ts';
import type { A2aService } from '../service.ts';

/** Starts `follower` on the service's stored tasks and the ledger's acceptances; the service it returns stops it on close. */
export function followSettlement(service: A2aService, follower: SettlementFollower, ledger: Ledger): A2aService {
  // Tasks a previous process finished keep following the chain: pending claims to confirmation, waiting ones out.
  for (const { task } of service.store.followed()) follower.resume(task);
  if (follower.size > 0) void follower.tick();
  // After each acceptance the ledger's state is the new one: the follower reads it.
  const off = ledger.onAcceptance(() => void follower.tick());
  return {
    ...service,
    close() {
      off();
      service.close();
    },
  };
}
