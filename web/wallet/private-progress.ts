/**
 * The private scan's progress in words (docs/wallet.md "Confidential account"): blocks scanned of the total from its
 * start to the node's tip, and the time left at the rate so far — shown from the first second of a scan.
 */
import type { ScanProgress } from './private-account.ts';

export function scanProgressText(progress: ScanProgress, elapsedMs: number): string {
  const total = progress.tip - progress.from + 1;
  const done = Math.max(0, progress.height - progress.from + 1);
  if (total <= 0 || done >= total) return `scanned through block ${progress.tip} (from block ${progress.from})`;
  const perSecond = elapsedMs > 0 ? done / (elapsedMs / 1_000) : 0;
  const left = done === 0 || perSecond === 0 ? 'time left: estimating…' : `about ${formatSeconds(Math.ceil((total - done) / perSecond))} left`;
  return `scanning: ${done.toLocaleString('en')} of ${total.toLocaleString('en')} blocks (from block ${progress.from} to ${progress.tip}), ${left}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
