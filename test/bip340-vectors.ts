// The official BIP340 vectors (bitcoin/bips bip-0340/test-vectors.csv), read from ../shared/vectors.
import { fromHex } from '../src/util/bytes.ts';
import { readVectorText } from './vectors.ts';

export interface Bip340Vector {
  readonly index: number;
  /** Absent on verify-only rows. */
  readonly secretKey: Uint8Array | undefined;
  readonly publicKey: Uint8Array;
  readonly auxRand: Uint8Array | undefined;
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  readonly valid: boolean;
  readonly comment: string;
}

export function readBip340Vectors(): Bip340Vector[] {
  const lines = readVectorText('bip340', 'test-vectors.csv').trim().split(/\r?\n/);
  return lines.slice(1).map((line) => {
    const [index, sk, pk, aux, msg, sig, result, comment] = line.split(',');
    return {
      index: Number(index),
      secretKey: sk ? fromHex(sk) : undefined,
      publicKey: fromHex(pk!),
      auxRand: aux ? fromHex(aux) : undefined,
      message: fromHex(msg!),
      signature: fromHex(sig!),
      valid: result === 'TRUE',
      comment: comment ?? '',
    };
  });
}
