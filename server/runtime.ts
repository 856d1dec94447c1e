/**
 * Which code this process runs: the bundle `bin/bundle-node.mjs` writes (it defines WEFT_BUNDLED there) or the
 * TypeScript sources through tsx (docs/operations.md "Start-up"). The node logs it with `node_ready`; worker threads
 * start from the matching entry (worker-entry.ts).
 */
declare const WEFT_BUNDLED: boolean | undefined;

export const runtime: 'bundle' | 'tsx' = typeof WEFT_BUNDLED !== 'undefined' && WEFT_BUNDLED ? 'bundle' : 'tsx';
