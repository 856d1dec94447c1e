/**
 * Scenario events beyond the partition and churn (lab.ts runs them on schedule): a selfish miner withholding its
 * blocks (its node cut from every link while it mines on its private chain, then released), and an eclipse attempt
 * on a victim (many Sybil connections holding its inbound slots).
 */
import { eclipse, type EclipseAttempt } from './attacker.ts';
import type { LabNode } from './lab-node.ts';
import type { Link } from './link.ts';

/** What the eclipse attempt left the victim with. */
export interface EclipseOutcome {
  readonly victim: number;
  readonly attempted: number;
  readonly held: number;
  /** The victim's outbound peers before and during the attempt (its honest neighbours it dialled). */
  readonly outboundBefore: number;
  readonly outboundDuring: number;
  readonly inboundDuring: number;
}

/** The links touching `node` (keys are `a-b`). */
export function linksOf(links: ReadonlyMap<string, Link>, node: number): Link[] {
  return [...links.entries()].filter(([key]) => key.split('-').map(Number).includes(node)).map(([, link]) => link);
}

async function peerDirections(node: LabNode): Promise<{ outbound: number; inbound: number }> {
  const answer = await node.rpc('get_peers');
  const peers = (Array.isArray(answer) ? answer : answer.peers) as { direction: string }[];
  return { outbound: peers.filter((p) => p.direction === 'outbound').length, inbound: peers.filter((p) => p.direction === 'inbound').length };
}

/** Opens `count` Sybil connections to the victim and reads its peers back after `holdMs`. */
export async function eclipseAttempt(victim: LabNode, count: number, holdMs: number): Promise<{ outcome: EclipseOutcome; attempt: EclipseAttempt }> {
  const before = await peerDirections(victim);
  const attempt = await eclipse(victim.p2pPort, count);
  await new Promise((r) => setTimeout(r, holdMs));
  const during = await peerDirections(victim);
  return {
    attempt,
    outcome: { victim: victim.index, attempted: count, held: attempt.held, outboundBefore: before.outbound, outboundDuring: during.outbound, inboundDuring: during.inbound },
  };
}
