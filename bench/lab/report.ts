/**
 * The network lab's figures and report: JSON (every figure), a Markdown table, and an SVG plot of each block's time
 * to reach every node and of tip agreement over the run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EclipseOutcome } from './events.ts';
import type { LabRun } from './lab.ts';
import { lateJoinFigures, lateJoinMarkdown, type LateJoinFigures } from './late-join.ts';
import { loadFigures, loadMarkdown, type LoadFigures } from './report-load.ts';

export interface LabFigures {
  readonly scenario: string;
  readonly nodes: number;
  readonly degree: number;
  readonly diameter: number;
  readonly linkDelayMs: number;
  readonly blocksMined: number;
  /** Blocks every node committed (a late joiner counts for the blocks submitted once it listened). */
  readonly blocksEverywhere: number;
  /** ms from submission until 50 / 95 / 100 % of nodes held the block: the p50 and p95 over blocks of each. */
  readonly propagationMs: { readonly reach50: Quantiles; readonly reach95: Quantiles; readonly reach100: Quantiles };
  /**
   * With a partition or withholding: reach of 100 % over the blocks submitted while every link was up (before the cut,
   * or 10 s or more after the heal) — what relay does, apart from what the cut held back.
   */
  readonly reach100LinksUpMs?: Quantiles;
  readonly templateAgeMs: Quantiles;
  readonly tipAgreement: number;
  /**
   * Red blocks of the DAG at node 0 at the end (node 1 when node 0 joined late, holding the DAG from its pruning point
   * only): (blocks − 1 − blue score − (tips − 1)) / (blocks − 1).
   */
  readonly redRatio: number;
  readonly convergeAfterHealMs: number | null;
  readonly wireBytesPerBlockPerNode: number;
  readonly cpuSecondsPerNode: { readonly mean: number; readonly max: number };
  readonly rssMbPerNode: { readonly mean: number; readonly max: number };
  /** Bans of the adversary's identities, and the targets that issued none (each target should ban it). */
  readonly attackerBans: number;
  readonly targetsThatDidNotBan: readonly number[];
  /** Bans of anyone else: an honest node banned by an honest node. Must be 0. */
  readonly honestBans: number;
  /** Each honest ban with its code and reason, as the banning node logged it. */
  readonly honestBanReasons: readonly string[];
  readonly restarts: number;
  /** Nodes that ended under 90 % of the highest blue score any node has (not blocks held: a joined node holds fewer). */
  readonly stalledNodes: readonly number[];
  /** The transaction load's figures, when the scenario offers one. */
  readonly load?: LoadFigures;
  /** What an eclipse attempt left its victim with. */
  readonly eclipse?: EclipseOutcome;
  /** When a node joining mid-run joined, and whether it reached the network's tip. */
  readonly lateJoin?: LateJoinFigures;
  readonly errors: readonly string[];
}

export interface Quantiles {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
}

function quantiles(values: readonly number[]): Quantiles {
  if (values.length === 0) return { p50: NaN, p95: NaN, max: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

/** ms after `submittedAt` when `share` of the nodes held the block, or undefined if never. */
function reachMs(arrivals: readonly number[], nodes: number, share: number): number | undefined {
  const need = Math.ceil(nodes * share);
  return arrivals.length >= need ? [...arrivals].sort((a, b) => a - b)[need - 1] : undefined;
}

/** After a heal, blocks submitted this soon still meet the catch-up: left out of the links-up propagation. */
const healSettleMs = 10_000;

export function labFigures(run: LabRun): LabFigures {
  const n = run.scenario.nodes;
  const late = run.lateJoin;
  // A late joiner holds the blocks submitted before it listened from its join or its catch-up, not by relay.
  const counted = (index: number, submittedAtMs: number) => index !== late?.node || (late.listeningAtMs !== undefined && submittedAtMs >= late.listeningAtMs);
  const reach = { reach50: [] as number[], reach95: [] as number[], reach100: [] as number[] };
  const reach100LinksUp: number[] = [];
  const cut = run.cutAtMs;
  const linksUp = (atMs: number): boolean => cut === undefined || atMs < cut || (run.healedAtMs !== undefined && atMs >= run.healedAtMs + healSettleMs);
  let everywhere = 0;
  for (const block of run.mined) {
    const holders = run.nodes.filter((node) => counted(node.index, block.submittedAtMs));
    const arrivals = holders.map((node) => node.committed.get(block.hash)).filter((t): t is number => t !== undefined).map((t) => Math.max(0, t - block.submittedAtMs));
    if (arrivals.length === holders.length) everywhere++;
    for (const [key, share] of [['reach50', 0.5], ['reach95', 0.95], ['reach100', 1]] as const) {
      const ms = reachMs(arrivals, holders.length, share);
      if (ms !== undefined) reach[key].push(ms);
    }
    const all = reachMs(arrivals, holders.length, 1);
    if (cut !== undefined && all !== undefined && linksUp(block.submittedAtMs)) reach100LinksUp.push(all);
  }
  const info = run.nodes[late?.node === 0 ? 1 : 0]!.info;
  const dagBlocks = Number(info.blocks);
  const reds = Math.max(0, dagBlocks - 1 - Number(info.blue_score) - (Number(info.tips) - 1));
  const blueScores = run.nodes.map((node) => Number(node.info.blue_score));
  const most = Math.max(...blueScores);
  const healPoll = run.healedAtMs === undefined ? undefined : run.polls.find((p) => p.atMs >= run.healedAtMs! && p.agree);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const cpu = run.nodes.map((node) => node.cpuSeconds);
  const rss = run.nodes.map((node) => node.rssBytes / 2 ** 20);
  const load = loadFigures(run);
  return {
    scenario: run.scenario.name,
    nodes: n,
    degree: run.scenario.degree,
    diameter: run.diameter,
    linkDelayMs: run.scenario.link.delayMs,
    blocksMined: run.mined.length,
    blocksEverywhere: everywhere,
    propagationMs: { reach50: quantiles(reach.reach50), reach95: quantiles(reach.reach95), reach100: quantiles(reach.reach100) },
    ...(cut === undefined ? {} : { reach100LinksUpMs: quantiles(reach100LinksUp) }),
    templateAgeMs: quantiles(run.mined.map((b) => b.templateAgeMs)),
    tipAgreement: run.polls.filter((p) => p.agree).length / Math.max(1, run.polls.length),
    redRatio: dagBlocks > 1 ? reds / (dagBlocks - 1) : 0,
    convergeAfterHealMs: run.healedAtMs === undefined ? null : healPoll === undefined ? Number.POSITIVE_INFINITY : healPoll.atMs - run.healedAtMs,
    wireBytesPerBlockPerNode: run.mined.length === 0 ? 0 : run.wireBytes / run.mined.length / n,
    cpuSecondsPerNode: { mean: mean(cpu), max: Math.max(...cpu) },
    rssMbPerNode: { mean: mean(rss), max: Math.max(...rss) },
    attackerBans: run.nodes.reduce((sum, node) => sum + node.bannedPeers.filter((p) => run.attackerIds.includes(p)).length, 0),
    targetsThatDidNotBan: (run.scenario.attacker?.targets ?? []).filter((i) => !run.nodes[i]!.bannedPeers.some((p) => run.attackerIds.includes(p))),
    honestBans: run.nodes.reduce((sum, node) => sum + node.bannedPeers.filter((p) => !run.attackerIds.includes(p)).length, 0),
    honestBanReasons: run.nodes.flatMap((node) => node.banReasons.filter((_, i) => !run.attackerIds.includes(node.bannedPeers[i]!))),
    restarts: run.restarts.length,
    stalledNodes: run.nodes.filter((node, i) => blueScores[i]! < 0.9 * most).map((node) => node.index),
    ...(load === undefined ? {} : { load }),
    ...(run.eclipse === undefined ? {} : { eclipse: run.eclipse }),
    ...(late === undefined ? {} : { lateJoin: lateJoinFigures(late, run.polls, run.startedAtMs, blueScores) }),
    errors: run.errors,
  };
}

function markdown(f: LabFigures): string {
  const q = (x: Quantiles) => `${x.p50.toFixed(0)} / ${x.p95.toFixed(0)} / ${x.max.toFixed(0)}`;
  return [
    `# Network lab: ${f.scenario}`,
    '',
    `${f.nodes} nodes, degree ${f.degree}, diameter ${f.diameter}, links ${f.linkDelayMs} ms one way.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| blocks mined / reached every node | ${f.blocksMined} / ${f.blocksEverywhere} |`,
    `| block reaches 50 % of nodes, ms (p50 / p95 / max) | ${q(f.propagationMs.reach50)} |`,
    `| block reaches 95 % of nodes, ms | ${q(f.propagationMs.reach95)} |`,
    `| block reaches 100 % of nodes, ms | ${q(f.propagationMs.reach100)} |`,
    ...(f.reach100LinksUpMs === undefined ? [] : [`| block reaches 100 % of nodes while every link is up, ms | ${q(f.reach100LinksUpMs)} |`]),
    `| template age at find, ms | ${q(f.templateAgeMs)} |`,
    `| all nodes on one selected tip (share of polls) | ${(f.tipAgreement * 100).toFixed(0)} % |`,
    `| red ratio | ${(f.redRatio * 100).toFixed(1)} % |`,
    `| converged after the heal | ${f.convergeAfterHealMs === null ? '—' : `${f.convergeAfterHealMs} ms`} |`,
    `| wire bytes per block per node | ${f.wireBytesPerBlockPerNode.toFixed(0)} |`,
    `| CPU s per node (mean / max) | ${f.cpuSecondsPerNode.mean.toFixed(1)} / ${f.cpuSecondsPerNode.max.toFixed(1)} |`,
    `| RSS MB per node (mean / max) | ${f.rssMbPerNode.mean.toFixed(0)} / ${f.rssMbPerNode.max.toFixed(0)} |`,
    `| bans of the adversary / targets that did not ban it | ${f.attackerBans} / ${f.targetsThatDidNotBan.length === 0 ? 'none' : f.targetsThatDidNotBan.join(', ')} |`,
    `| honest nodes banned by honest nodes | ${f.honestBans}${f.honestBanReasons.length === 0 ? '' : ` (${f.honestBanReasons.join('; ')})`} |`,
    `| kill -9 restarts (churn) | ${f.restarts} |`,
    `| stalled nodes | ${f.stalledNodes.length === 0 ? 'none' : f.stalledNodes.join(', ')} |`,
    ...(f.load === undefined ? [] : loadMarkdown(f.load)),
    ...(f.eclipse === undefined ? [] : [
      `| eclipse: Sybil connections held / attempted | ${f.eclipse.held} / ${f.eclipse.attempted} |`,
      `| eclipse: victim's outbound peers before / during (inbound during) | ${f.eclipse.outboundBefore} / ${f.eclipse.outboundDuring} (${f.eclipse.inboundDuring}) |`,
    ]),
    ...(f.lateJoin === undefined ? [] : lateJoinMarkdown(f.lateJoin)),
    `| errors | ${f.errors.length} |`,
    '',
  ].join('\n');
}

/** Two panels: each block's ms to reach every node (by block), and tip agreement (1/0) over the run's seconds. */
function svg(run: LabRun): string {
  const width = 720;
  const panel = 160;
  const reach = run.mined.map((b) => {
    const times = run.nodes.map((node) => node.committed.get(b.hash));
    return times.every((t) => t !== undefined) ? Math.max(...(times as number[])) - b.submittedAtMs : null;
  });
  const maxMs = Math.max(1, ...reach.filter((x): x is number => x !== null));
  const points = reach.map((ms, i) => (ms === null ? null : `${(i / Math.max(1, reach.length - 1)) * width},${panel - (ms / maxMs) * panel}`)).filter(Boolean).join(' ');
  const t0 = run.polls[0]?.atMs ?? 0;
  const span = Math.max(1, (run.polls.at(-1)?.atMs ?? 1) - t0);
  const agree = run.polls.map((p) => `${((p.atMs - t0) / span) * width},${2 * panel + 20 - (p.agree ? panel : 0)}`).join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width + 80}" height="${2 * panel + 60}" font-family="sans-serif" font-size="11">`,
    `<g transform="translate(60,10)">`,
    `<text x="0" y="-2">block → every node, ms (max ${maxMs.toFixed(0)})</text>`,
    `<polyline fill="none" stroke="#2563eb" points="${points}"/>`,
    `<line x1="0" y1="${panel}" x2="${width}" y2="${panel}" stroke="#999"/>`,
    `<text x="0" y="${panel + 16}">all nodes on one tip (1 = yes) over ${(span / 1000).toFixed(0)} s</text>`,
    `<polyline fill="none" stroke="#16a34a" points="${agree}"/>`,
    `<line x1="0" y1="${2 * panel + 20}" x2="${width}" y2="${2 * panel + 20}" stroke="#999"/>`,
    '</g></svg>',
  ].join('\n');
}

export function writeLabReport(run: LabRun, dir: string): LabFigures {
  mkdirSync(dir, { recursive: true });
  const figures = labFigures(run);
  writeFileSync(join(dir, 'report.json'), JSON.stringify({ figures, edges: run.edges, mined: run.mined }, null, 2));
  writeFileSync(join(dir, 'report.md'), markdown(figures));
  writeFileSync(join(dir, 'report.svg'), svg(run));
  // Each node's own log, one JSON line each: the lab's emulator bug showed first as "authentication failed" here.
  for (const node of run.nodes) writeFileSync(join(dir, `node-${node.index}.jsonl`), node.log.map((line) => JSON.stringify(line)).join('\n') + '\n');
  return figures;
}

export { markdown as labMarkdown };
