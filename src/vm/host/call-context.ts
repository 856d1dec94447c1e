/**
 * The host functions that read the call's circumstances (docs/contracts.md "Host ABI"): caller, contract, value,
 * spendable balance, block height and time, gas left. Each costs the schedule's flat `context` gas; i64 results are
 * the values' two's-complement bits.
 */
import type { HostGas } from '../gas-schedule.ts';
import type { HostCall } from '../host-functions.ts';
import { charge, write } from './call-memory.ts';

export function caller(c: HostCall, g: HostGas, out: number): void {
  charge(c, g.context);
  write(c, out, c.context.caller);
}

export function selfAddress(c: HostCall, g: HostGas, out: number): void {
  charge(c, g.context);
  write(c, out, c.context.self);
}

export function callValue(c: HostCall, g: HostGas): bigint {
  charge(c, g.context);
  return BigInt.asIntN(64, c.context.value);
}

export function spendableBalance(c: HostCall, g: HostGas): bigint {
  charge(c, g.context);
  return BigInt.asIntN(64, c.spendable);
}

export function blockHeight(c: HostCall, g: HostGas): bigint {
  charge(c, g.context);
  return BigInt.asIntN(64, c.context.blockHeight);
}

export function blockTimestamp(c: HostCall, g: HostGas): bigint {
  charge(c, g.context);
  return BigInt.asIntN(64, c.context.blockTimestamp);
}

export function gasLeft(c: HostCall, g: HostGas): bigint {
  charge(c, g.context);
  return c.gas!.value as bigint;
}
