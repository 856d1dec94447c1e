/** bin/bundle-freshness.mjs: whether build/node/ may run (built, and no source changed since its build began). */
export function bundleIsFresh(root?: string): boolean;
export const buildInputs: readonly string[];
export const buildOutputs: readonly string[];
export const buildStampPath: string;
/** Why `npm run build` must run, or null when all it makes is there and fresh. */
export function staleBuildReason(root?: string): string | null;
export function buildIsFresh(root?: string): boolean;
