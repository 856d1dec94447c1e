/*
 * BIP340 verification on the system's libsecp256k1 (Debian's libsecp256k1-dev), as a Node-API addon: the node's
 * fastest SignatureVerifier backend (server/crypto/native-verifier.ts; docs/transactions.md "Signature backends").
 * bin/build-native.mjs compiles it into build/native/ when the library and its headers are there; without them the
 * node verifies on libsecp256k1 compiled to Wasm (tiny-secp256k1), ~6x slower, with the same answers.
 *
 *   verify(signature64, message32, xOnlyKey32) -> boolean
 *   verifyBatch(signatures, messages, keys, results) -> undefined   (results[i] = 1 valid, 0 not; count = results.length)
 *
 * Every argument is a Uint8Array; wrong lengths are answered "not valid" (verify) or a RangeError (verifyBatch, whose
 * caller packs the buffers). A key that is not an x coordinate on the curve fails the parse: invalid, as BIP340 says.
 * One verification context per loaded instance (each worker thread loads its own), read-only once made.
 */
#include <node_api.h>
#include <secp256k1.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>

static int bytes_of(napi_env env, napi_value value, unsigned char **data, size_t *length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  void *raw;
  if (napi_get_typedarray_info(env, value, &type, length, &raw, &buffer, &offset) != napi_ok || type != napi_uint8_array) return 0;
  *data = (unsigned char *)raw;
  return 1;
}

static int verify_one(const secp256k1_context *ctx, const unsigned char *sig, const unsigned char *msg, const unsigned char *key) {
  secp256k1_xonly_pubkey pubkey;
  if (!secp256k1_xonly_pubkey_parse(ctx, &pubkey, key)) return 0;
  return secp256k1_schnorrsig_verify(ctx, sig, msg, 32, &pubkey) ? 1 : 0;
}

static napi_value verify(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  void *data;
  napi_value result;
  unsigned char *sig, *msg, *key;
  size_t sig_len, msg_len, key_len;
  int ok = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, &data);
  if (argc == 3 && bytes_of(env, argv[0], &sig, &sig_len) && bytes_of(env, argv[1], &msg, &msg_len) && bytes_of(env, argv[2], &key, &key_len) &&
      sig_len == 64 && msg_len == 32 && key_len == 32) {
    ok = verify_one((const secp256k1_context *)data, sig, msg, key);
  }
  napi_get_boolean(env, ok, &result);
  return result;
}

static napi_value verify_batch(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  void *data;
  unsigned char *sigs, *msgs, *keys, *results;
  size_t sigs_len, msgs_len, keys_len, count;
  napi_get_cb_info(env, info, &argc, argv, NULL, &data);
  if (argc != 4 || !bytes_of(env, argv[0], &sigs, &sigs_len) || !bytes_of(env, argv[1], &msgs, &msgs_len) ||
      !bytes_of(env, argv[2], &keys, &keys_len) || !bytes_of(env, argv[3], &results, &count)) {
    napi_throw_type_error(env, NULL, "verifyBatch(signatures, messages, keys, results): four Uint8Arrays");
    return NULL;
  }
  if (sigs_len != 64 * count || msgs_len != 32 * count || keys_len != 32 * count) {
    napi_throw_range_error(env, NULL, "verifyBatch: expected 64, 32 and 32 bytes per result");
    return NULL;
  }
  for (size_t i = 0; i < count; i++) results[i] = (unsigned char)verify_one((const secp256k1_context *)data, sigs + 64 * i, msgs + 32 * i, keys + 32 * i);
  return NULL;
}

static void destroy_context(void *ctx) {
  secp256k1_context_destroy((secp256k1_context *)ctx);
}

NAPI_MODULE_INIT() {
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_NONE);
  napi_value fn;
  if (ctx == NULL) return NULL;
  napi_add_env_cleanup_hook(env, destroy_context, ctx);
  napi_create_function(env, "verify", NAPI_AUTO_LENGTH, verify, ctx, &fn);
  napi_set_named_property(env, exports, "verify", fn);
  napi_create_function(env, "verifyBatch", NAPI_AUTO_LENGTH, verify_batch, ctx, &fn);
  napi_set_named_property(env, exports, "verifyBatch", fn);
  return exports;
}
