/**
 * A small SVG line chart (no chart library) with axes: the y axis labelled with the series' minimum and maximum in
 * its unit, the x axis with what the first and last points are (a time or a height). Fixed viewBox, so a new
 * point redraws in place without moving the page's layout. The chart's accessible name summarises the same
 * numbers, and `chartSummary` gives the caption its latest value — caption, axes and line agree by construction.
 */
import { escapeHtml } from './format.ts';

const width = 320;
const height = 120;
const plot = { left: 52, right: 314, top: 8, bottom: 92 };

export interface ChartOptions {
  /** Stroke colour. */
  readonly color?: string;
  /** A value with its unit, for the axis, the name and the caption. */
  readonly format: (value: number) => string;
  /** What the first and last points are, e.g. ['60 min ago', 'now'] or ['height 1,980', 'height 2,000']. */
  readonly xLabels: readonly [string, string];
  /** What the chart shows, e.g. "Hash rate over the last hour". */
  readonly title: string;
}

const text = (x: number, y: number, anchor: string, content: string): string =>
  `<text x="${x}" y="${y}" text-anchor="${anchor}" font-size="10" fill="#8b98a5">${escapeHtml(content)}</text>`;

/** "latest X (min A, max B, N points)": the caption of a series, from the same values the line is drawn from. */
export function chartSummary(values: readonly number[], format: (v: number) => string): string {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return 'no data yet';
  return `latest ${format(finite.at(-1)!)}`;
}

/**
 * The widest a label of `chars` characters draws at font-size 10: 6.2 px a character bounds digits, separators and
 * the unit letters of the sans-serif the page uses (digits are 5.6 px), so a label sized by it is never clipped.
 */
export const labelWidthPx = (chars: number): number => Math.ceil(chars * 6.2);

/**
 * The chart's markup and accessible name. The plot starts right of the widest y-axis label: a fixed margin clipped
 * the leading digits of wide labels ("23.51 MH/s" read "3.51 MH/s", difficulty "1,563,262" read ",563,262").
 */
export function lineChartMarkup(values: readonly number[], options: ChartOptions): { readonly viewBox: string; readonly inner: string; readonly label: string } {
  const viewBox = `0 0 ${width} ${height}`;
  const finite = values.filter((v) => Number.isFinite(v));
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const yLabels = finite.length === 0 ? [] : [options.format(max), options.format(min)];
  const left = Math.max(plot.left, 4 + labelWidthPx(Math.max(0, ...yLabels.map((l) => l.length))) + 4);
  const axes = `<line x1="${left}" y1="${plot.top}" x2="${left}" y2="${plot.bottom}" stroke="#2a3642"/><line x1="${left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#2a3642"/>`;
  if (finite.length === 0) {
    return { viewBox, inner: `${axes}${text((left + plot.right) / 2, (plot.top + plot.bottom) / 2, 'middle', 'no data yet')}`, label: `${options.title}: no data yet` };
  }
  const span = max - min || 1;
  const step = finite.length > 1 ? (plot.right - left) / (finite.length - 1) : 0;
  const y = (v: number): number => plot.bottom - 2 - ((v - min) / span) * (plot.bottom - plot.top - 4);
  const points = finite.map((v, i) => `${(left + i * step).toFixed(1)},${y(v).toFixed(1)}`);
  const labels = [
    text(left - 4, plot.top + 8, 'end', yLabels[0]!),
    text(left - 4, plot.bottom, 'end', yLabels[1]!),
    text(left, height - 4, 'start', options.xLabels[0]),
    text(plot.right, height - 4, 'end', options.xLabels[1]),
  ];
  return {
    viewBox,
    inner: `${axes}${labels.join('')}<polyline fill="none" stroke="${options.color ?? '#4ea1ff'}" stroke-width="2" points="${points.join(' ')}"/>`,
    label: `${options.title}, ${options.xLabels[0]} to ${options.xLabels[1]}: ${finite.length} points from ${options.format(min)} to ${options.format(max)}, ${chartSummary(finite, options.format)}`,
  };
}

export function renderLineChart(svg: SVGSVGElement, values: readonly number[], options: ChartOptions): void {
  const markup = lineChartMarkup(values, options);
  svg.setAttribute('viewBox', markup.viewBox);
  svg.innerHTML = markup.inner;
  svg.setAttribute('aria-label', markup.label);
}

/** Keeps the last `max` values of a series. */
export function pushBounded(series: number[], value: number, max: number): void {
  series.push(value);
  if (series.length > max) series.splice(0, series.length - max);
}

export function formatRate(hashesPerSecond: number): string {
  const units = ['H/s', 'kH/s', 'MH/s', 'GH/s', 'TH/s'];
  let v = hashesPerSecond;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 2)} ${units[i]}`;
}
