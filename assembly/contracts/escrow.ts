// An escrow that holds value: the deployer (the depositor) endows it with the deploy's value and names a
// beneficiary; the depositor may `release` everything to the beneficiary, or the beneficiary may `refund` it to the
// depositor; anyone may `deposit` more. Once settled it refuses further moves. State: `depositor`, `beneficiary`,
// `settled` (scalars, empty key).
import { Args, Writer, returnValue } from "./sdk/codec";
import { getBytes, getU64, setBytes, setU64 } from "./sdk/storage";
import { balance, bytesEqual, caller, emit, revert, transferValue, value } from "./sdk/context";

const SCALAR = new Uint8Array(0);

function party(name: string): Uint8Array {
  const stored = getBytes(name, SCALAR);
  if (stored == null) revert("not initialised");
  return stored!;
}

function settleTo(to: Uint8Array, topic: string): void {
  if (getU64("settled", SCALAR) != 0) revert("already settled");
  const amount = balance();
  setU64("settled", SCALAR, 1);
  transferValue(to, amount);
  emit(topic, new Writer().address(to).u64(amount).finish());
  returnValue(new Writer().u64(amount));
}

export function init(): void {
  setBytes("depositor", SCALAR, caller());
  setBytes("beneficiary", SCALAR, Args.fromInput().nextAddress());
  setU64("settled", SCALAR, 0);
}

export function deposit(): void {
  if (value() == 0) revert("nothing sent");
  if (getU64("settled", SCALAR) != 0) revert("already settled");
  returnValue(new Writer().u64(balance()));
}

export function release(): void {
  if (!bytesEqual(caller(), party("depositor"))) revert("only the depositor releases");
  settleTo(party("beneficiary"), "Released");
}

export function refund(): void {
  if (!bytesEqual(caller(), party("beneficiary"))) revert("only the beneficiary refunds");
  settleTo(party("depositor"), "Refunded");
}

export function held(): void {
  returnValue(new Writer().u64(balance()));
}
