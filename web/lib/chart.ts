/**
 * A small SVG line chart (no chart library): fixed viewBox, so a new point redraws in place without changing the
 * page's layout. Values are plotted left to right, scaled to their own min..max.
 */
const width = 300;
const height = 90;

export function renderLineChart(svg: SVGSVGElement, values: readonly number[], color = '#4ea1ff'): void {
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) {
    svg.innerHTML = '';
    return;
  }
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min || 1;
  const step = finite.length > 1 ? width / (finite.length - 1) : 0;
  const points = finite.map((v, i) => `${(i * step).toFixed(1)},${(height - 4 - ((v - min) / span) * (height - 8)).toFixed(1)}`);
  svg.innerHTML = `<polyline fill="none" stroke="${color}" stroke-width="2" vector-effect="non-scaling-stroke" points="${points.join(' ')}"/>`;
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
  return `${v.toFixed(2)} ${units[i]}`;
}
