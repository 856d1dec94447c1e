// proto/weft/v1/node.proto against the method table (src/rpc/method-table.ts): every method the node serves has a
// gRPC RPC of its name, and every RPC is a method of the table, so a method added later cannot be left off gRPC.
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { nodeProtoPath, protoLoaderOptions } from '../../server/grpc/grpc-server.ts';
import { handWrittenRpcs, protoGenerateCommand, regenerateProto } from '../../server/grpc/generate-proto.ts';
import { pascalCase, snakeCase, streamedMethods } from '../../server/grpc/rpc-names.ts';
import { defineMethod } from '../../src/rpc/method.ts';
import { rpcMethods } from '../../src/rpc/method-table.ts';

const protoText = readFileSync(nodeProtoPath, 'utf8');
const stale = `proto/weft/v1/node.proto disagrees with src/rpc/method-table.ts: run \`${protoGenerateCommand}\` and commit the proto`;

describe('node.proto follows the method table', () => {
  it('is what the generator writes from the table today', () => {
    expect(regenerateProto(protoText, rpcMethods) === protoText, stale).toBe(true);
  });

  it('serves every table method as a unary RPC of its name, and subscribe/unsubscribe as the Subscribe stream', () => {
    const service = (grpc.loadPackageDefinition(protoLoader.loadSync(nodeProtoPath, protoLoaderOptions)) as any).weft.v1.Node.service as grpc.ServiceDefinition;
    const unary = Object.entries(service).filter(([, m]) => !m.responseStream).map(([rpc]) => rpc);
    const expected = rpcMethods.filter((m) => !streamedMethods.has(m.name)).map((m) => pascalCase(m.name));
    expect(unary.sort(), stale).toEqual(expected.sort());
    expect(service.Subscribe?.responseStream).toBe(true);
    for (const rpc of unary) expect(rpcMethods.some((m) => m.name === snakeCase(rpc)), `${rpc} is no method of the table`).toBe(true);
  });

  it('keeps the hand-written typed RPCs out of the generated section', () => {
    const written = handWrittenRpcs(protoText);
    expect(written).toContain('GetBlock');
    expect(written).toContain('Subscribe');
    expect(written).not.toContain('GetEscrow');
  });

  it('adds a method added to the table later, and drops one taken out', () => {
    const added = defineMethod({ name: 'get_new_thing', summary: 'A method added after the proto was generated.', params: z.strictObject({}), result: z.null(), scope: 'public', run: () => null });
    const withNew = regenerateProto(protoText, [...rpcMethods, added]);
    expect(withNew).not.toBe(protoText);
    expect(withNew).toContain('  // A method added after the proto was generated.\n  rpc GetNewThing(JsonParams) returns (JsonResult);\n');
    const without = regenerateProto(protoText, rpcMethods.filter((m) => m.name !== 'get_escrow'));
    expect(without).not.toContain('rpc GetEscrow(');
    expect(regenerateProto(without, rpcMethods)).toBe(protoText);
  });
});
