// A fungible token (ERC-20-like): balances under `balances` keyed by the 33-byte holder address, the supply under
// `total_supply`. `init(supply)` mints the supply to the deployer.
import { Args, Writer, returnValue } from "./sdk/codec";
import { U64Map, getU64, setU64 } from "./sdk/storage";
import { caller, emit, revert } from "./sdk/context";

const balances = new U64Map("balances");
const TOTAL = "total_supply";
const SCALAR = new Uint8Array(0);

function transferEvent(from: Uint8Array, to: Uint8Array, amount: u64): void {
  emit("Transfer", new Writer().address(from).address(to).u64(amount).finish());
}

export function init(): void {
  const supply = Args.fromInput().nextU64();
  const owner = caller();
  setU64(TOTAL, SCALAR, supply);
  balances.set(owner, supply);
  transferEvent(new Uint8Array(33), owner, supply);
}

export function transfer(): void {
  const args = Args.fromInput();
  const to = args.nextAddress();
  const amount = args.nextU64();
  const from = caller();
  const fromBalance = balances.get(from);
  if (fromBalance < amount) revert("insufficient balance");
  balances.set(from, fromBalance - amount);
  balances.set(to, balances.get(to) + amount);
  transferEvent(from, to, amount);
  returnValue(new Writer().bool(true));
}

export function balance_of(): void {
  returnValue(new Writer().u64(balances.get(Args.fromInput().nextAddress())));
}

export function total_supply(): void {
  returnValue(new Writer().u64(getU64(TOTAL, SCALAR)));
}
