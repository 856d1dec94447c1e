/**
 * The call ABI's value encoding (docs/contracts.md "Call ABI"): a call's input — and its return data, and the
 * token's event data — is a sequence of tagged values. Entry points take no Wasm arguments; they read this through
 * input_len/input_read (the MultiversX/NEAR style), so no JS↔Wasm marshalling or BigInt boundary enters consensus.
 *
 *   value = tag u8 ‖ body
 *   0x01 u64 (8 bytes LE) | 0x02 i64 (8 bytes LE, two's complement) | 0x03 bool (1 byte, 0 or 1)
 *   0x04 string (u32 LE length ‖ UTF-8) | 0x05 bytes (u32 LE length ‖ bytes) | 0x06 address (33 bytes)
 *
 * assembly/contracts/sdk/codec.ts is the contract side of the same encoding.
 */
import { addressBytes } from '../crypto/address.ts';
import { DecodeError } from '../errors.ts';

const AbiTag = { u64: 0x01, i64: 0x02, bool: 0x03, string: 0x04, bytes: 0x05, address: 0x06 } as const;

export type AbiValue =
  | { readonly type: 'u64'; readonly value: bigint }
  | { readonly type: 'i64'; readonly value: bigint }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bytes'; readonly value: Uint8Array }
  | { readonly type: 'address'; readonly value: Uint8Array };

const utf8 = new TextEncoder();
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function u64Bytes(value: bigint, signed: boolean): Uint8Array {
  const ok = signed ? value >= -(1n << 63n) && value < 1n << 63n : value >= 0n && value < 1n << 64n;
  if (!ok) throw new DecodeError(`${signed ? 'i64' : 'u64'} value ${value} out of range`);
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, value), true);
  return out;
}

function lengthPrefixed(tag: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + body.length);
  out[0] = tag;
  new DataView(out.buffer).setUint32(1, body.length, true);
  out.set(body, 5);
  return out;
}

function encodeAbiValue(v: AbiValue): Uint8Array {
  switch (v.type) {
    case 'u64':
    case 'i64':
      return Uint8Array.of(AbiTag[v.type], ...u64Bytes(v.value, v.type === 'i64'));
    case 'bool':
      return Uint8Array.of(AbiTag.bool, v.value ? 1 : 0);
    case 'string':
      return lengthPrefixed(AbiTag.string, utf8.encode(v.value));
    case 'bytes':
      return lengthPrefixed(AbiTag.bytes, v.value);
    case 'address':
      if (v.value.length !== addressBytes) throw new DecodeError(`an address value of ${v.value.length} bytes, expected ${addressBytes}`);
      return Uint8Array.of(AbiTag.address, ...v.value);
  }
}

export function encodeAbiValues(values: readonly AbiValue[]): Uint8Array {
  const parts = values.map(encodeAbiValue);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Decodes a whole sequence (return data); DecodeError on an unknown tag or a truncated value. */
export function decodeAbiValues(bytes: Uint8Array): AbiValue[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: AbiValue[] = [];
  let at = 0;
  const need = (n: number): void => {
    if (at + n > bytes.length) throw new DecodeError(`ABI value truncated at byte ${at}`);
  };
  while (at < bytes.length) {
    const tag = bytes[at++]!;
    switch (tag) {
      case AbiTag.u64:
      case AbiTag.i64:
        need(8);
        out.push(
          tag === AbiTag.u64 ? { type: 'u64', value: view.getBigUint64(at, true) } : { type: 'i64', value: view.getBigInt64(at, true) },
        );
        at += 8;
        break;
      case AbiTag.bool:
        need(1);
        if (bytes[at]! > 1) throw new DecodeError(`bool byte ${bytes[at]} at ${at}`);
        out.push({ type: 'bool', value: bytes[at++] === 1 });
        break;
      case AbiTag.string:
      case AbiTag.bytes: {
        need(4);
        const len = view.getUint32(at, true);
        at += 4;
        need(len);
        const body = bytes.slice(at, at + len);
        at += len;
        if (tag === AbiTag.bytes) out.push({ type: 'bytes', value: body });
        else {
          try {
            out.push({ type: 'string', value: utf8Strict.decode(body) });
          } catch {
            throw new DecodeError('ABI string is not UTF-8');
          }
        }
        break;
      }
      case AbiTag.address:
        need(addressBytes);
        out.push({ type: 'address', value: bytes.slice(at, at + addressBytes) });
        at += addressBytes;
        break;
      default:
        throw new DecodeError(`unknown ABI tag 0x${tag.toString(16)} at byte ${at - 1}`);
    }
  }
  return out;
}
