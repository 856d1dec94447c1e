/** bin/node-flags.mjs: the V8 flags a Weft node runs under (shebang, `npm start`, the benches' spawns). */
export const nodeV8Flags: readonly string[];
