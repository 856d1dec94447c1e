/**
 * The transaction load's figures (load.ts): offered and confirmed tx/s, submit → confirmed, propagation to every
 * node, and wire bytes per transaction per node net of the mining-only baseline.
 */
import type { LabRun } from './lab.ts';

export interface LoadFigures {
  readonly offeredTxPerS: number;
  readonly submitted: number;
  /** Submitted transactions node 0 confirmed by the end, over the offering's seconds. */
  readonly confirmedTxPerS: number;
  readonly unconfirmed: number;
  readonly submitToConfirmedMs: { readonly p50: number; readonly p95: number };
  /** ms from submission until every node (up) had it in its pool, p50 / p95 over transactions. */
  readonly propagationAllMs: { readonly p50: number; readonly p95: number };
  /** The same for the transfers sent by Dandelion++ stem and for those announced at once, when the load stems some. */
  readonly propagationByRoute?: { readonly stem: RouteFigures; readonly fluff: RouteFigures; readonly hops: number };
  readonly txBytes: number;
  /**
   * Link bytes from the offering's start to the end beyond what the blocks mined meanwhile cost without transactions
   * (the baseline), per submitted transaction per node (every byte on a link is received by one node).
   */
  readonly wireBytesPerTxPerNode: number;
  /** The same without subtracting the baseline (an upper bound: blocks and pings included). */
  readonly grossWireBytesPerTxPerNode: number;
  /**
   * The baseline: link bytes per block mined while the network only mined (a window of `baselineS` before the
   * funding), and that window's blocks and seconds. Per block, not per second: Poisson mining puts anywhere from a
   * few to many blocks in ten seconds, and blocks are what the bytes pay for.
   */
  /**
   * Payload bytes the nodes sent per submitted transaction per node, by message type, whole run (before Noise's
   * framing; mining's own messages included): where the wire bytes go. Largest first.
   */
  readonly sentPerTxPerNode: readonly (readonly [message: string, bytes: number])[];
  readonly baseline: { readonly bytesPerBlock: number; readonly blocks: number; readonly seconds: number };
}

export interface RouteFigures {
  readonly transfers: number;
  /** Those that reached every node by the end: the p50 / p95 are over them. */
  readonly everywhere: number;
  readonly p50: number;
  readonly p95: number;
  /** Transfers the spy was announced (spy.ts), and of them those whose first announcer was the node they were sent to. */
  readonly spied: number;
  readonly originFirst: number;
}

const quantile = (xs: readonly number[], q: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!);

export function loadFigures(run: LabRun): LoadFigures | undefined {
  const load = run.load;
  const marks = run.wireMarks;
  const { baseline, offerWire } = load ?? {};
  if (load === undefined || load.offerStartedAtMs === undefined || baseline === undefined || offerWire === undefined || marks.end === undefined) return undefined;
  const offerS = ((load.offerEndedAtMs ?? marks.end.atMs) - load.offerStartedAtMs) / 1000;
  const confirmed: number[] = [];
  const everywhere: number[] = [];
  const emptyRoute = () => ({ transfers: 0, ms: [] as number[], spied: 0, originFirst: 0 });
  const byRoute = { stem: emptyRoute(), fluff: emptyRoute() };
  for (const [hash, { atMs, stem, node }] of load.submitted) {
    const c = load.confirmedAt.get(hash);
    if (c !== undefined) confirmed.push(c - atMs);
    const route = byRoute[stem ? 'stem' : 'fluff'];
    route.transfers++;
    const announcer = run.firstAnnouncer?.get(hash);
    if (announcer !== undefined) {
      route.spied++;
      if (announcer === node) route.originFirst++;
    }
    const seen = load.seenAt.get(hash);
    if (seen === undefined || seen.some((t) => Number.isNaN(t))) continue;
    everywhere.push(Math.max(...seen) - atMs);
    route.ms.push(Math.max(...seen) - atMs);
  }
  const routeFigures = (r: ReturnType<typeof emptyRoute>): RouteFigures => ({ transfers: r.transfers, everywhere: r.ms.length, p50: quantile(r.ms, 0.5), p95: quantile(r.ms, 0.95), spied: r.spied, originFirst: r.originFirst });
  const stemShape = run.scenario.load?.stem;
  const minedBetween = (fromMs: number, toMs: number) => run.mined.filter((b) => b.submittedAtMs >= fromMs && b.submittedAtMs < toMs).length;
  const baselineBlocks = minedBetween(baseline.from.atMs, baseline.to.atMs);
  const bytesPerBlock = baselineBlocks === 0 ? NaN : (baseline.to.bytes - baseline.from.bytes) / baselineBlocks;
  const txWire = marks.end.bytes - offerWire.bytes - bytesPerBlock * minedBetween(offerWire.atMs, marks.end.atMs);
  const n = run.scenario.nodes;
  return {
    offeredTxPerS: load.submitted.size / Math.max(offerS, 1e-3),
    submitted: load.submitted.size,
    confirmedTxPerS: confirmed.length / Math.max(offerS, 1e-3),
    unconfirmed: load.submitted.size - confirmed.length,
    submitToConfirmedMs: { p50: quantile(confirmed, 0.5), p95: quantile(confirmed, 0.95) },
    propagationAllMs: { p50: quantile(everywhere, 0.5), p95: quantile(everywhere, 0.95) },
    ...(stemShape === undefined ? {} : { propagationByRoute: { stem: routeFigures(byRoute.stem), fluff: routeFigures(byRoute.fluff), hops: stemShape.hops } }),
    txBytes: load.txBytes,
    wireBytesPerTxPerNode: load.submitted.size === 0 ? NaN : txWire / load.submitted.size / n,
    grossWireBytesPerTxPerNode: load.submitted.size === 0 ? NaN : (marks.end.bytes - offerWire.bytes) / load.submitted.size / n,
    sentPerTxPerNode: sentPerTx(run, load.submitted.size),
    baseline: { bytesPerBlock, blocks: baselineBlocks, seconds: (baseline.to.atMs - baseline.from.atMs) / 1000 },
  };
}

function sentPerTx(run: LabRun, submitted: number): [string, number][] {
  const total = new Map<string, number>();
  for (const node of run.nodes) for (const [message, bytes] of Object.entries(node.sentBytes)) total.set(message, (total.get(message) ?? 0) + bytes);
  const perTx = (bytes: number) => (submitted === 0 ? NaN : bytes / submitted / run.scenario.nodes);
  return [...total].map(([message, bytes]): [string, number] => [message, perTx(bytes)]).sort((a, b) => b[1] - a[1]);
}

export function loadMarkdown(f: LoadFigures): string[] {
  return [
    `| load: offered / confirmed tx/s (unconfirmed at the end) | ${f.offeredTxPerS.toFixed(1)} / ${f.confirmedTxPerS.toFixed(1)} (${f.unconfirmed} of ${f.submitted}) |`,
    `| load: submit → confirmed, ms (p50 / p95) | ${f.submitToConfirmedMs.p50.toFixed(0)} / ${f.submitToConfirmedMs.p95.toFixed(0)} |`,
    `| load: transaction reaches every node, ms (p50 / p95) | ${f.propagationAllMs.p50.toFixed(0)} / ${f.propagationAllMs.p95.toFixed(0)} |`,
    ...(f.propagationByRoute === undefined ? [] : routeMarkdown(f.propagationByRoute)),
    `| load: baseline, link bytes per block while only mining (its blocks in its seconds) | ${f.baseline.bytesPerBlock.toFixed(0)} (${f.baseline.blocks} in ${f.baseline.seconds.toFixed(1)} s) |`,
    `| load: wire bytes per tx per node, net of baseline / gross (tx ${f.txBytes} bytes) | ${f.wireBytesPerTxPerNode.toFixed(0)} (${(f.wireBytesPerTxPerNode / f.txBytes).toFixed(2)}×) / ${f.grossWireBytesPerTxPerNode.toFixed(0)} (${(f.grossWireBytesPerTxPerNode / f.txBytes).toFixed(2)}×) |`,
    `| load: payload bytes sent per tx per node, by message (whole run, before framing) | ${f.sentPerTxPerNode.filter(([, b]) => b >= 0.5).map(([m, b]) => `${m} ${b.toFixed(0)}`).join(', ')} |`,
  ];
}

function routeMarkdown(r: NonNullable<LoadFigures['propagationByRoute']>): string[] {
  const row = (name: string, f: RouteFigures) => `| load: ${name}: reaches every node, ms (p50 / p95; of transfers, reached every node) | ${f.p50.toFixed(0)} / ${f.p95.toFixed(0)} (${f.everywhere} of ${f.transfers}) |`;
  const spy = (name: string, f: RouteFigures) => `| load: ${name}: the spy's first announcer is the origin (of transfers it was announced) | ${f.spied === 0 ? '—' : `${((100 * f.originFirst) / f.spied).toFixed(0)} % (${f.originFirst} of ${f.spied})`} |`;
  return [row(`stem of ${r.hops} hops`, r.stem), row('announced at once', r.fluff), spy(`stem of ${r.hops} hops`, r.stem), spy('announced at once', r.fluff)];
}
