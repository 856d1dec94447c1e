// Every JSON-RPC code of the node's error table (src/errors.ts ErrorCode) arrives as its own class, whose kind is
// the code's kind in that table; an unknown code is a ServerError that keeps its number.
import { describe, expect, it } from 'vitest';
import { ErrorCode, kindOfRpcCode, WeftError } from '../../../src/errors.ts';
import { rpcCallError, rpcErrorClasses, RpcCallError, ServerError } from '../src/index.ts';

describe('rpcCallError', () => {
  it.each(Object.entries(ErrorCode))('%s (%i) has a class of its own kind', (_name, code) => {
    const error = rpcCallError('get_block', code, 'why', { reason: 'x' });
    const kind = kindOfRpcCode(code);
    expect(error).toBeInstanceOf(rpcErrorClasses[kind]!);
    expect(error).toBeInstanceOf(RpcCallError);
    expect(error).toBeInstanceOf(WeftError);
    expect([error.kind, error.code, error.data, error.message]).toEqual([kind, code, { reason: 'x' }, 'get_block: why']);
    expect(error.name).toBe(rpcErrorClasses[kind]!.name);
  });

  it('gives each code a different class', () => {
    const classes = new Set(Object.values(ErrorCode).map((code) => rpcErrorClasses[kindOfRpcCode(code)]));
    expect(classes.size).toBe(Object.values(ErrorCode).length);
  });

  it('keeps an unknown code as a ServerError with its number', () => {
    const error = rpcCallError('x', -39999, 'odd');
    expect(error).toBeInstanceOf(ServerError);
    expect([error.kind, error.code]).toEqual(['server_error', -39999]);
  });
});
