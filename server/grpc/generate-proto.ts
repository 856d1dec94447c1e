/**
 * The JSON-params RPCs of proto/weft/v1/node.proto, generated from the method table (src/rpc/method-table.ts) so
 * that every method the node serves is callable over gRPC. The hand-written RPCs above the marked section keep their
 * typed messages (clients depend on them); every other method of the table gets `rpc PascalName(JsonParams) returns
 * (JsonResult)`, with its summary as the comment. subscribe/unsubscribe are the server stream `Subscribe` instead.
 *
 * Run: npx tsx server/grpc/generate-proto.ts   (rewrites the marked section in place; test/house/grpc-proto-table.test.ts
 * fails while the file and the table disagree)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyRpcMethod } from '../../src/rpc/method.ts';
import { rpcMethods } from '../../src/rpc/method-table.ts';
import { pascalCase, snakeCase, streamedMethods } from './rpc-names.ts';

export const protoGenerateCommand = 'npx tsx server/grpc/generate-proto.ts';
const sectionBegin = '  // BEGIN generated JSON-params RPCs';
const sectionEnd = '  // END generated JSON-params RPCs';

const rpcNamePattern = /^\s*rpc\s+(\w+)\s*\(/gm;

/** The proto text without its generated section, and where that section goes (the end of `service Node`). */
function splitProto(text: string): { before: string; after: string } {
  const begin = text.indexOf(sectionBegin);
  const end = text.indexOf(sectionEnd);
  if (begin >= 0 && end > begin) return { before: text.slice(0, begin), after: text.slice(text.indexOf('\n', end) + 1) };
  const close = text.lastIndexOf('}');
  if (close < 0 || !/service\s+Node\s*\{/.test(text)) throw new Error('node.proto has no `service Node { ... }` to generate into');
  return { before: text.slice(0, close), after: text.slice(close) };
}

/** The RPC names written by hand (outside the generated section). */
export function handWrittenRpcs(protoText: string): string[] {
  const { before, after } = splitProto(protoText);
  return [...`${before}${after}`.matchAll(rpcNamePattern)].map((m) => m[1]!);
}

/** node.proto with its generated section rebuilt from `methods`. */
export function regenerateProto(protoText: string, methods: readonly AnyRpcMethod[] = rpcMethods): string {
  const { before, after } = splitProto(protoText);
  const written = new Set(handWrittenRpcs(protoText));
  const lines = [sectionBegin, `  // From src/rpc/method-table.ts by \`${protoGenerateCommand}\`; do not edit by hand.`];
  for (const method of methods) {
    const rpc = pascalCase(method.name);
    if (snakeCase(rpc) !== method.name) throw new Error(`method ${method.name} does not round-trip through its gRPC name ${rpc}`);
    if (streamedMethods.has(method.name) || written.has(rpc)) continue;
    lines.push(`  // ${method.summary.replace(/\s+/g, ' ')}`, `  rpc ${rpc}(JsonParams) returns (JsonResult);`);
  }
  lines.push(sectionEnd);
  return `${before.replace(/\n*$/, '\n\n')}${lines.join('\n')}\n${after}`;
}

const nodeProtoFile = fileURLToPath(new URL('../../proto/weft/v1/node.proto', import.meta.url));

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const before = readFileSync(nodeProtoFile, 'utf8');
  const after = regenerateProto(before);
  if (after !== before) writeFileSync(nodeProtoFile, after);
  console.log(after === before ? 'node.proto is up to date' : `node.proto regenerated (${handWrittenRpcs(after).length} hand-written RPCs kept)`);
}
