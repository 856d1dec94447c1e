/**
 * Work that can wait until the page has drawn: the tab's light node starts this way on the explorer and the wallet.
 * Its start (module, Wasm BLAKE3, IndexedDB, a key, the Noise handshake) used to come before the page could show
 * anything, a row of long tasks on a phone (issue 32, docs/performance.md "Lighthouse").
 */

/** Resolves after the next frame is drawn and the main thread is idle, or `waitMsMax` after that frame at the latest. */
export function afterDrawnAndIdle(waitMsMax: number): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: waitMsMax });
    else setTimeout(resolve, 0);
  }));
}
