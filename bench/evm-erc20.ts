/**
 * The EVM baseline of bench/contracts.ts: an ERC-20 `transfer(address,uint256)` on @ethereumjs/evm, in-memory
 * state (its default SimpleStateManager), as the Weft token's transfer runs against in-memory storage.
 *
 * The runtime bytecode is hand-assembled (no solc here), the minimal equivalent of
 *
 *   mapping(address => uint256) balances;            // slot 0
 *   function transfer(address to, uint256 v) returns (bool) {
 *     require(balances[msg.sender] >= v);
 *     balances[msg.sender] -= v;  balances[to] += v;
 *     emit Transfer(msg.sender, to, v);  return true;
 *   }
 *
 * with the same work as the Weft token's transfer: two reads, two writes, one event, a boolean return.
 */
import { createEVM } from '@ethereumjs/evm';
import { Address, bigIntToBytes, bytesToHex, concatBytes, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

// Offsets: `transfer` at 0x13 and `fail` at 0x7b, counted from the listing.
const runtime = [
  // 0x00 dispatch: selector == a9059cbb ? jump transfer : revert
  '6000', '35', '60e0', '1c', '63a9059cbb', '14', '6013', '57', '6000', '80', 'fd',
  // 0x13 transfer:
  '5b',
  '33', '6000', '52', '6000', '6020', '52', '6040', '6000', '20', //  fromSlot = keccak(caller ‖ 0)
  '80', '54', '6024', '35', //                                       [fromSlot, fromBal, v]
  '80', '82', '10', '607b', '57', //                                   fromBal < v → fail
  '80', '82', '03', '83', '55', //                                     balances[from] = fromBal − v
  '6004', '35', '6000', '52', '6040', '6000', '20', //                 toSlot = keccak(to ‖ 0)
  '80', '54', '82', '01', '90', '55', //                               balances[to] += v
  '80', '6000', '52', //                                               mem[0] = v
  '6004', '35', '33', '7f' + bytesToHex(keccak_256(new TextEncoder().encode('Transfer(address,address,uint256)'))).slice(2),
  '6020', '6000', 'a3', //                                             LOG3(0, 32, Transfer, from, to)
  '6001', '6000', '52', '6020', '6000', 'f3', //                       return true
  // 0x7b fail:
  '5b', '6000', '80', 'fd',
].join('');

const word = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);
const slotOf = (holder: Address): Uint8Array => keccak_256(concatBytes(setLengthLeft(holder.bytes, 32), word(0n)));

export interface Erc20Bench {
  /** One transfer of 1 unit from the funded holder to `to`; throws unless it succeeded and returned true. */
  transfer(): Promise<void>;
}

export async function createErc20Bench(): Promise<Erc20Bench> {
  const code = hexToBytes(`0x${runtime}`);
  if (code[0x13] !== 0x5b || code[0x7b] !== 0x5b) throw new Error('ERC-20 listing: a jump target is not at its JUMPDEST');
  const evm = await createEVM();
  const token = new Address(hexToBytes(`0x${'cc'.repeat(20)}`));
  const holder = new Address(hexToBytes(`0x${'a1'.repeat(20)}`));
  const to = new Address(hexToBytes(`0x${'b0'.repeat(20)}`));
  await evm.stateManager.putCode(token, code);
  await evm.stateManager.putStorage(token, slotOf(holder), word(10n ** 12n));
  const data = concatBytes(hexToBytes('0xa9059cbb'), setLengthLeft(to.bytes, 32), word(1n));
  return {
    async transfer() {
      const r = await evm.runCall({ caller: holder, to: token, data, gasLimit: 100_000n });
      if (r.execResult.exceptionError || r.execResult.returnValue[31] !== 1 || r.execResult.logs?.length !== 1) {
        throw new Error(`ERC-20 transfer failed: ${r.execResult.exceptionError?.error ?? 'no true / no log'}`);
      }
    },
  };
}
