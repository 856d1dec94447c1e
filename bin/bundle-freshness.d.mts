/** bin/bundle-freshness.mjs: whether build/node/ may run (built, and no source changed since its build began). */
export function bundleIsFresh(): boolean;
