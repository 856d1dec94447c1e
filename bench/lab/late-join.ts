/**
 * A node that joins mid-run by proof (docs/network.md "Joining by proof mid-run"): created with the others, it alone
 * dials its links (no other node has it as an addnode target), and it starts at the scenario's second with an empty
 * datadir. On a version 2 regtest whose pruning point lies behind the tip it joins at a peer's proven pruning point
 * (docs/pruning-proof.md "Serving and joining") instead of syncing from genesis. Its figures: how long the join took,
 * the point it joined at, and when it first named the same selected tip as every other node.
 */
import type { LabNode } from './lab-node.ts';

/** A tip poll as lab.ts takes it: which nodes were up, and whether they named one selected tip. */
interface Poll {
  readonly atMs: number;
  readonly agree: boolean;
  readonly nodes: readonly number[];
}

export interface LateJoin {
  readonly node: number;
  readonly atS: number;
}

/** What the run saw of the joiner; filled in as it goes. */
export interface LateJoinRecord {
  readonly node: number;
  startedAtMs?: number;
  /** When it listened on every port: the join done, the chain open, p2p and the API up. */
  listeningAtMs?: number;
  /** The `chain loaded` line's time and the block it joined at (absent: it synced from genesis instead). */
  chainLoadedAtMs?: number;
  joinedAt?: string;
  /** The joined pruning point's blue score (its `fast_join_phase` trusted-data line). */
  pointBlueScore?: number;
  /** Its blue score, and the highest of the other nodes', when it began listening. */
  blueScoreAtListening?: number;
  networkBlueScoreAtListening?: number;
}

export interface LateJoinFigures {
  readonly node: number;
  /** Seconds into the mining when it started. */
  readonly startedAtS: number | null;
  readonly joinedByProof: boolean;
  /** ms from its start until its chain was loaded (the join done), until it listened, until it was on the network's tip. */
  readonly chainLoadedMs: number | null;
  readonly listeningMs: number | null;
  readonly onTipMs: number | null;
  readonly pointBlueScore: number | null;
  readonly blueScoreAtListening: number | null;
  readonly networkBlueScoreAtListening: number | null;
  /** The highest blue score of any node at the end, less the joiner's. */
  readonly blueScoreBehindAtEnd: number;
  /** Every node, the joiner included, on one selected tip in the last poll. */
  readonly onTipAtEnd: boolean;
}

const highestBlueScore = async (nodes: readonly LabNode[]): Promise<number> =>
  Math.max(...(await Promise.all(nodes.filter((n) => n.isRunning()).map((n) => n.rpc('get_info').then((i) => Number(i.blue_score), () => 0)))));

/** Starts the joiner now; the record fills in when it listens. A failed start lands in `errors`. */
export function startLateJoiner(joiner: LabNode, nodes: readonly LabNode[], errors: string[], log: (line: string) => void): LateJoinRecord {
  const record: LateJoinRecord = { node: joiner.index, startedAtMs: Date.now() };
  log(`late join: node ${joiner.index} starts with an empty datadir`);
  joiner.start().then(
    async () => {
      record.listeningAtMs = Date.now();
      record.blueScoreAtListening = Number((await joiner.rpc('get_info')).blue_score);
      record.networkBlueScoreAtListening = await highestBlueScore(nodes.filter((n) => n !== joiner));
      log(`late join: node ${joiner.index} listening after ${record.listeningAtMs - record.startedAtMs!} ms at blue score ${record.blueScoreAtListening} (network ${record.networkBlueScoreAtListening})`);
    },
    (error: unknown) => void errors.push(`late join: ${String(error)}`),
  );
  return record;
}

/** Reads what the joiner logged about its join into the record (at the end of the run). */
export function noteJoin(record: LateJoinRecord, joiner: LabNode): void {
  const loaded = joiner.firstLine('chain loaded');
  if (loaded !== undefined) record.chainLoadedAtMs = Date.parse(String(loaded.time));
  if (typeof loaded?.joinedAt === 'string') record.joinedAt = loaded.joinedAt;
  const point = joiner.events('fast_join_phase').find((e) => e.phase === 'trusted-data');
  if (point !== undefined) record.pointBlueScore = Number(point.blueScore);
}

export function lateJoinFigures(record: LateJoinRecord, polls: readonly Poll[], miningStartedAtMs: number, blueScores: readonly number[]): LateJoinFigures {
  const started = record.startedAtMs;
  const since = (ms: number | undefined) => (started === undefined || ms === undefined ? null : ms - started);
  const listening = record.listeningAtMs;
  const onTip = listening === undefined ? undefined : polls.find((p) => p.atMs >= listening && p.agree && p.nodes.includes(record.node));
  const last = polls.at(-1);
  return {
    node: record.node,
    startedAtS: started === undefined ? null : (started - miningStartedAtMs) / 1000,
    joinedByProof: record.joinedAt !== undefined,
    chainLoadedMs: since(record.chainLoadedAtMs),
    listeningMs: since(listening),
    onTipMs: since(onTip?.atMs),
    pointBlueScore: record.pointBlueScore ?? null,
    blueScoreAtListening: record.blueScoreAtListening ?? null,
    networkBlueScoreAtListening: record.networkBlueScoreAtListening ?? null,
    blueScoreBehindAtEnd: Math.max(...blueScores) - (blueScores[record.node] ?? 0),
    onTipAtEnd: last !== undefined && last.agree && last.nodes.includes(record.node),
  };
}

export function lateJoinMarkdown(f: LateJoinFigures): string[] {
  const ms = (x: number | null) => (x === null ? '—' : `${x} ms`);
  return [
    `| late join: node, started at (s into mining), joined by proof | node ${f.node}, ${f.startedAtS === null ? '—' : f.startedAtS.toFixed(1)} s, ${f.joinedByProof ? 'yes' : 'no'} |`,
    `| late join: start → chain loaded / listening / on the network's tip | ${ms(f.chainLoadedMs)} / ${ms(f.listeningMs)} / ${ms(f.onTipMs)} |`,
    `| late join: pruning point's blue score; its / the network's blue score when listening | ${f.pointBlueScore ?? '—'}; ${f.blueScoreAtListening ?? '—'} / ${f.networkBlueScoreAtListening ?? '—'} |`,
    `| late join: blue score behind at the end; on one tip with all at the end | ${f.blueScoreBehindAtEnd}; ${f.onTipAtEnd ? 'yes' : 'no'} |`,
  ];
}
