/**
 * Work that can wait until the page has drawn: the tab's light node starts this way on the explorer and the wallet.
 * Its start (a Worker's script, Wasm BLAKE3, IndexedDB, the Noise handshake, the first header pages) used to come
 * before the page could show anything (issue 32, docs/performance.md "Lighthouse"); it now runs in a Worker, and
 * starting it after the first draw keeps its downloads out of the page's way.
 */

/** Resolves after the next frame is drawn and the main thread is idle, or `waitMsMax` after that frame at the latest. */
export function afterDrawnAndIdle(waitMsMax: number): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: waitMsMax });
    else setTimeout(resolve, 0);
  }));
}
