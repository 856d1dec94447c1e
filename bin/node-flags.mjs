// The V8 flags a Weft node runs under: the `weft` command's shebang and `npm start` carry them (V8 sizes its heap
// from the command line only; v8.setFlagsFromString at start-up leaves it as it is), and the benches spawn nodes
// with them so they measure the node as shipped. test/unit/bin/node-flags.test.ts keeps the three in step.
//
// --max-semi-space-size=64: a 128 MB young generation (default 32 MB). Scavenges were most of a node's GC under load
// (~17 ms each, ~3.5 a second at 800 tx/s); with more room more short-lived objects die before one copies them:
// 1.12–1.16× less main-thread CPU a transfer (docs/performance.md "Line rate, again").
export const nodeV8Flags = ['--max-semi-space-size=64'];
