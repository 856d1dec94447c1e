// The host ABI as AssemblyScript imports (src/vm/host-abi.ts is the definition; docs/contracts.md "Host ABI").
// Every one is in module `env`; a contract that imports anything else is refused at deploy.

@external("env", "input_len") export declare function input_len(): i32;
@external("env", "input_read") export declare function input_read(ptr: usize): void;
@external("env", "set_return") export declare function set_return(ptr: usize, len: i32): void;
@external("env", "revert") export declare function revert(ptr: usize, len: i32): void;
@external("env", "storage_read")
export declare function storage_read(varPtr: usize, varLen: i32, keyPtr: usize, keyLen: i32, outPtr: usize, outCap: i32): i32;
@external("env", "storage_write")
export declare function storage_write(varPtr: usize, varLen: i32, keyPtr: usize, keyLen: i32, valPtr: usize, valLen: i32): void;
@external("env", "storage_remove") export declare function storage_remove(varPtr: usize, varLen: i32, keyPtr: usize, keyLen: i32): i32;
@external("env", "storage_has") export declare function storage_has(varPtr: usize, varLen: i32, keyPtr: usize, keyLen: i32): i32;
@external("env", "caller") export declare function caller(outPtr: usize): void;
@external("env", "self_address") export declare function self_address(outPtr: usize): void;
@external("env", "value") export declare function value(): u64;
@external("env", "block_height") export declare function block_height(): u64;
@external("env", "block_timestamp") export declare function block_timestamp(): u64;
@external("env", "gas_left") export declare function gas_left(): i64;
@external("env", "emit_event") export declare function emit_event(topicPtr: usize, topicLen: i32, dataPtr: usize, dataLen: i32): void;
@external("env", "blake3") export declare function blake3(ptr: usize, len: i32, outPtr: usize): void;
@external("env", "balance") export declare function balance(): u64;
@external("env", "transfer_value") export declare function transfer_value(toPtr: usize, amount: u64): void;
