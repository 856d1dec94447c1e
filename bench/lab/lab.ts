/**
 * The network lab (docs/network.md): N `weft node` processes as shipped, wired into a random regular graph whose
 * every link runs through a link emulator (link.ts), mined at Poisson times by chosen miners (miners.ts), with the
 * scenario's events (a partition, …) applied on schedule; it measures block propagation, tip agreement, red ratio,
 * convergence after a heal, wire bytes, CPU, RSS and bans, and writes a report (report.ts).
 */
import { createLabNode, freePort, startLabNode, type LabNode } from './lab-node.ts';
import { noteJoin, startLateJoiner, type LateJoin, type LateJoinRecord } from './late-join.ts';
import { startLink, type Link, type LinkShape } from './link.ts';
import { attack } from './attacker.ts';
import { startSpy, type Spy } from './spy.ts';
import { startLoad, type LoadShape, type TxLoad, type WireMark } from './load.ts';
import { eclipseAttempt, linksOf, type EclipseOutcome } from './events.ts';
import { labMinerAddress, startMiners, type MinedBlock, type MinerShare } from './miners.ts';
import { diameter, orientEdges, randomRegularGraph, seededRandom, type Edge } from './topology.ts';

export interface Scenario {
  readonly name: string;
  readonly nodes: number;
  readonly degree: number;
  readonly link: LinkShape;
  readonly durationS: number;
  readonly seed: number;
  readonly miners: readonly MinerShare[];
  readonly blockIntervalMs: number;
  readonly templateRefreshMs: number;
  /** Cut every link between the halves (nodes below n/2 and the rest) at `atS` for `forS` seconds. */
  readonly partition?: { readonly atS: number; readonly forS: number };
  /** Every `everyS` seconds, kill -9 a random node that does not mine and restart it `downS` seconds later. */
  readonly churn?: { readonly everyS: number; readonly downS: number };
  /** At `atS`, an adversary peer relays an invalid block and a junk transaction to each of `targets` (attacker.ts). */
  readonly attacker?: { readonly atS: number; readonly targets: readonly number[] };
  /** A transaction load offered to random nodes once its senders are funded (load.ts). */
  readonly load?: LoadShape;
  /** One node whose every link has this shape instead (a node behind a slow line). */
  readonly slowNode?: { readonly node: number; readonly link: LinkShape };
  /**
   * A selfish miner: the miner `node` withholds from `atS` for `forS` seconds (every link of its node cut, so it
   * mines on its private chain), then releases (links restored; convergence is measured from there).
   */
  readonly withhold?: { readonly node: number; readonly atS: number; readonly forS: number };
  /** At `atS`, `connections` Sybil connections to `victim` hold its inbound slots until the run ends. */
  readonly eclipse?: { readonly victim: number; readonly atS: number; readonly connections: number };
  /** Flags every node starts with (a version 2 regtest with short depths, so a pruning point lies behind the tip). */
  readonly nodeFlags?: readonly string[];
  /**
   * `node` starts `atS` seconds into the mining with an empty datadir, dialling every neighbour itself, and joins by
   * proof (late-join.ts). It may not mine, and the scenario has no load (the load subscribes to every node at once).
   */
  readonly lateJoin?: LateJoin;
}

/** Wire bytes of every link at the end (the load marks its own windows). */
export interface WireMarks {
  end?: WireMark;
}

export interface TipPoll {
  readonly atMs: number;
  readonly agree: boolean;
  /** The nodes that were up, and the selected tip each named. */
  readonly nodes: readonly number[];
  readonly tips: readonly string[];
}

export interface LabRun {
  readonly scenario: Scenario;
  readonly edges: readonly Edge[];
  readonly diameter: number;
  readonly startedAtMs: number;
  readonly mined: readonly MinedBlock[];
  readonly polls: readonly TipPoll[];
  /** Per node: `get_info` at the end, CPU seconds, RSS, bans it issued. */
  readonly nodes: readonly {
    index: number; info: any; cpuSeconds: number; rssBytes: number; bannedPeers: readonly string[]; banReasons: readonly string[];
    /** Payload bytes it sent since its last start, by message type. */
    sentBytes: Record<string, number>;
    committed: ReadonlyMap<string, number>; log: readonly Record<string, unknown>[];
  }[];
  /** Node id prefixes (16 hex) the adversary used: a ban of one of these is deserved, any other is an honest ban. */
  readonly attackerIds: readonly string[];
  /** Kill -9s the churn applied, with the restart's time. */
  readonly restarts: readonly { node: number; killedAtMs: number; restartedAtMs?: number }[];
  readonly wireBytes: number;
  /** When a partition or withholding cut its links, and when they came back. */
  readonly cutAtMs?: number;
  readonly healedAtMs?: number;
  readonly load?: TxLoad;
  /** When the load stems some transfers: the node that announced each transaction to the spy first (spy.ts). */
  readonly firstAnnouncer?: ReadonlyMap<string, number>;
  readonly eclipse?: EclipseOutcome;
  readonly lateJoin?: LateJoinRecord;
  readonly wireMarks: WireMarks;
  readonly errors: readonly string[];
}

const pollEveryMs = 250;

const settleMs = 3_000;

/** An edge's link key: its lower-numbered node first (`a-b`), whichever end dials it. */
const linkKey = (a: number, b: number): string => `${Math.min(a, b)}-${Math.max(a, b)}`;

async function startNetwork(scenario: Scenario, edges: readonly Edge[], random: () => number): Promise<{ nodes: LabNode[]; links: Map<string, Link> }> {
  const nodes: LabNode[] = new Array(scenario.nodes);
  const links = new Map<string, Link>();
  const late = scenario.lateJoin?.node;
  const flags = scenario.nodeFlags ?? [];
  // Every node's P2P port is chosen before any starts, so either end of an edge may dial it: a link sits in front
  // of its target's port before the target listens, and the dialer retries until it does (addnode backoff, ≤ 2 s).
  const p2pPorts: number[] = [];
  for (let i = 0; i < scenario.nodes; i++) p2pPorts.push(await freePort());
  /** A link in front of `to`, for `from` to dial. */
  const linkTo = async (from: number, to: number): Promise<string> => {
    const slow = scenario.slowNode !== undefined && (from === scenario.slowNode.node || to === scenario.slowNode.node);
    const link = await startLink(p2pPorts[to]!, slow ? scenario.slowNode!.link : scenario.link, random);
    links.set(linkKey(from, to), link);
    return `127.0.0.1:${link.port}`;
  };
  // Each edge is dialled by a random end (orientEdges), so outbound peers, and Dandelion++ stems, run every way. A
  // late joiner dials all its neighbours itself: no node has it as an addnode target, so it is absent until it starts.
  const present = edges.filter(([a, b]) => a !== late && b !== late);
  const oriented = orientEdges(scenario.nodes, present, random, late);
  try {
    for (let i = 0; i < scenario.nodes; i++) {
      if (i === late) continue;
      const addnodes: string[] = [];
      for (const [from, to] of oriented) if (from === i) addnodes.push(await linkTo(from, to));
      nodes[i] = await startLabNode(i, addnodes, flags, p2pPorts[i]);
    }
    if (late !== undefined) {
      const addnodes: string[] = [];
      for (const [a, b] of edges) if (a === late || b === late) addnodes.push(await linkTo(late, a === late ? b : a));
      nodes[late] = createLabNode(late, addnodes, flags, p2pPorts[late]);
    }
  } catch (error) {
    // A node that did not start leaves none of the others running behind the failed run.
    await Promise.all(nodes.map((n) => n?.stop()));
    await Promise.all([...links.values()].map((l) => l.close()));
    throw error;
  }
  return { nodes, links };
}

/** Waits until every node that is up holds its degree of peers (the late joiner's links left out). */
async function waitForLinks(nodes: readonly LabNode[], edges: readonly Edge[], late: number | undefined): Promise<void> {
  const degree = (i: number) => (i === late ? 0 : edges.filter(([a, b]) => (a === i || b === i) && a !== late && b !== late).length);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const counts = await Promise.all(nodes.map((n) => (n.index === late ? 0 : n.rpc('get_info').then((i) => Number(i.peer_count)))));
    if (counts.every((c, i) => c >= degree(i))) return;
    if (Date.now() > deadline) throw new Error(`links not all up after 60 s: peer counts ${counts.join(',')}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function pollTips(nodes: readonly LabNode[]): Promise<TipPoll> {
  // A node down for churn is left out: agreement is among the nodes that are up.
  const up = nodes.filter((n) => n.isRunning());
  const tips = await Promise.all(up.map((n) => n.rpc('get_info').then((i) => String(i.selected_tip), () => 'unreachable')));
  return { atMs: Date.now(), agree: tips.every((t) => t === tips[0]), nodes: up.map((n) => n.index), tips };
}

export async function runScenario(scenario: Scenario, log: (line: string) => void = () => undefined): Promise<LabRun> {
  const random = seededRandom(scenario.seed);
  const edges = randomRegularGraph(scenario.nodes, scenario.degree, random);
  log(`${scenario.name}: ${scenario.nodes} nodes, degree ${scenario.degree}, diameter ${diameter(scenario.nodes, edges)}, links ${scenario.link.delayMs} ms ±${scenario.link.jitter * 100}%`);
  if (scenario.lateJoin && (scenario.load || scenario.miners.some((m) => m.node === scenario.lateJoin!.node))) {
    throw new Error(`${scenario.name}: the late joiner may not mine, and a late join takes no load`);
  }
  const { nodes, links } = await startNetwork(scenario, edges, random);
  const errors: string[] = [];
  let spy: Spy | undefined;
  try {
    await waitForLinks(nodes, edges, scenario.lateJoin?.node);
    // A load that stems some transfers is watched by the spy, to price what the stem hides.
    spy = scenario.load?.stem ? await startSpy(nodes.filter((n) => n.index !== scenario.lateJoin?.node)) : undefined;
    log('network up; mining');
    const startedAtMs = Date.now();
    const miners = startMiners(nodes, scenario.miners, { blockIntervalMs: scenario.blockIntervalMs, templateRefreshMs: scenario.templateRefreshMs, random });
    const wireBytesNow = () => [...links.values()].reduce((sum, l) => sum + l.bytes(), 0);
    const wireMarks: WireMarks = {};
    const polls: TipPoll[] = [];
    let healedAtMs: number | undefined;
    let cutAtMs: number | undefined;
    // The links a partition cuts: between the halves, or every link of a withholding (selfish) miner.
    const crossing = scenario.withhold
      ? linksOf(links, scenario.withhold.node).map((link) => ['', link] as const)
      : [...links.entries()].filter(([key]) => {
        const [a, b] = key.split('-').map(Number) as [number, number];
        return a < scenario.nodes / 2 !== b < scenario.nodes / 2;
      });
    let eclipsed: Awaited<ReturnType<typeof eclipseAttempt>> | undefined;
    const endAt = startedAtMs + scenario.durationS * 1000;
    const load = scenario.load && startLoad(nodes, scenario.load, scenario.miners[0]!.node, endAt, seededRandom(scenario.seed + 1), { wireBytes: wireBytesNow, blocksMined: () => miners.mined.length }, log);
    const attackerIds: string[] = [];
    const restarts: { node: number; killedAtMs: number; restartedAtMs?: number }[] = [];
    const mining = new Set(scenario.miners.map((m) => m.node));
    let nextChurnS = scenario.churn?.everyS ?? Number.POSITIVE_INFINITY;
    let attacked = false;
    let lateJoin: LateJoinRecord | undefined;
    while (Date.now() < endAt) {
      const t = (Date.now() - startedAtMs) / 1000;
      if (scenario.lateJoin && lateJoin === undefined && t >= scenario.lateJoin.atS) lateJoin = startLateJoiner(nodes[scenario.lateJoin.node]!, nodes, errors, log);
      if (scenario.attacker && !attacked && t >= scenario.attacker.atS) {
        attacked = true;
        const template = await nodes[0]!.rpc('get_block_template', { miner_address: labMinerAddress(0) });
        const outcomes = await attack(scenario.attacker.targets.map((i) => ({ index: i, p2pPort: nodes[i]!.p2pPort })), String(template.header));
        attackerIds.push(...outcomes.map((o) => o.nodeId));
        log(`attacker: ${outcomes.length} connections, ${outcomes.filter((o) => o.reject !== undefined).length} refused with a reject`);
      }
      if (scenario.churn && t >= nextChurnS) {
        nextChurnS += scenario.churn.everyS;
        const candidates = nodes.filter((n) => !mining.has(n.index) && n.isRunning());
        const victim = candidates[Math.floor(random() * candidates.length)];
        if (victim) {
          const record: { node: number; killedAtMs: number; restartedAtMs?: number } = { node: victim.index, killedAtMs: Date.now() };
          restarts.push(record);
          victim.kill();
          log(`churn: kill -9 node ${victim.index} at ${t.toFixed(1)} s`);
          setTimeout(() => void victim.start().then(() => void (record.restartedAtMs = Date.now()), (e: unknown) => errors.push(String(e))), scenario.churn.downS * 1000);
        }
      }
      if (scenario.eclipse && eclipsed === undefined && t >= scenario.eclipse.atS) {
        eclipsed = await eclipseAttempt(nodes[scenario.eclipse.victim]!, scenario.eclipse.connections, 5_000);
        log(`eclipse: ${eclipsed.outcome.held} of ${eclipsed.outcome.attempted} Sybil connections held; victim outbound ${eclipsed.outcome.outboundBefore} → ${eclipsed.outcome.outboundDuring}, inbound ${eclipsed.outcome.inboundDuring}`);
      }
      const p = scenario.partition ?? scenario.withhold;
      if (p && t >= p.atS && t < p.atS + p.forS && !crossing[0]?.[1].isCut()) {
        log(`partition: cutting ${crossing.length} links at ${t.toFixed(1)} s`);
        for (const [, link] of crossing) link.cut();
        cutAtMs = Date.now();
      } else if (p && t >= p.atS + p.forS && crossing[0]?.[1].isCut()) {
        log(`heal at ${t.toFixed(1)} s`);
        for (const [, link] of crossing) link.restore();
        healedAtMs = Date.now();
      }
      polls.push(await pollTips(nodes));
      await new Promise((r) => setTimeout(r, pollEveryMs));
    }
    await miners.stop();
    eclipsed?.attempt.close();
    // A miner's node down for churn refuses its calls: not an error of the network.
    errors.push(...miners.errors);
    for (const n of nodes) if (!n.isRunning()) await n.start();
    if (lateJoin) noteJoin(lateJoin, nodes[lateJoin.node]!);
    await new Promise((r) => setTimeout(r, settleMs)); // the last blocks propagate
    polls.push(await pollTips(nodes));
    load?.stop();
    if (load) errors.push(...load.errors);
    const summaries = await Promise.all(
      nodes.map(async (n) => ({
        index: n.index, info: await n.rpc('get_info'), sentBytes: await n.sentBytesByMessage(), cpuSeconds: n.cpuSeconds(), rssBytes: n.rssBytes(), bannedPeers: n.events('peer_banned').map((e) => String(e.peer)),
        banReasons: n.events('peer_banned').map((e) => `node ${n.index} banned ${String(e.peer)}: ${String(e.code)} ${String(e.reason)}`), committed: n.committedAt,
        log: n.log(),
      })),
    );
    const wireBytes = wireBytesNow();
    wireMarks.end = { atMs: Date.now(), bytes: wireBytes };
    return {
      scenario, edges, diameter: diameter(scenario.nodes, edges), startedAtMs, mined: miners.mined, polls, nodes: summaries, wireBytes, wireMarks, attackerIds, restarts,
      ...(cutAtMs === undefined ? {} : { cutAtMs }), ...(healedAtMs === undefined ? {} : { healedAtMs }), ...(load === undefined ? {} : { load }), ...(eclipsed === undefined ? {} : { eclipse: eclipsed.outcome }),
      ...(spy === undefined ? {} : { firstAnnouncer: spy.firstAnnouncer }),
      ...(lateJoin === undefined ? {} : { lateJoin }), errors,
    };
  } finally {
    spy?.close();
    await Promise.all(nodes.map((n) => n?.stop()));
    await Promise.all([...links.values()].map((l) => l.close()));
  }
}
