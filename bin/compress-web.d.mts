/** bin/compress-web.mjs: writes .br and .gz copies of the compressible files under `root`. */
export const compressibleExtensions: ReadonlySet<string>;
export const compressMinBytes: number;
export function compressTree(root: string): { path: string; bytes: number; br: number; gz: number }[];
