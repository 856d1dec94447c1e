/**
 * Push-notification delivery (A2A 1.0 §4.3.3): each task event is POSTed as a StreamResponse to every webhook of
 * the task, with `Authorization: <scheme> <credentials>` from the config's `authentication` and the config's token
 * in `X-A2A-Notification-Token` (the a2a-js convention; 1.0 names no header for it). At least once: an attempt
 * that fails or answers non-2xx is retried with doubling backoff; events of one config go out in order.
 *
 * SSRF guard: only http(s) URLs whose every resolved address is public (no loopback, private, link-local, CGNAT,
 * unique-local, multicast or unspecified address) — unless the host is in `allowHosts`, the explicit allowlist for
 * receivers on a private network (the node's `push-allow-hosts` config key; tests, a sidecar): a host name, an IP
 * literal, or an IPv4 CIDR range that the resolved addresses fall in. The check runs when a config is created and
 * again before each delivery.
 *
 * The state is `PushSenderState` (push/state.ts); push/deliver.ts queues and sends, push/webhook-url.ts is the SSRF
 * guard. This file wires them.
 */
import { a2aPushAttemptsMax, a2aPushRetryBaseMs, a2aPushTimeoutMs } from '../../src/a2a/limits.ts';
import type { PushDispatcher } from '../../src/a2a/runner/state.ts';
import type { TaskPushNotificationConfig } from '../../src/a2a/types.ts';
import { deliveriesIdle, enqueueDelivery } from './push/deliver.ts';
import type { PushSenderState } from './push/state.ts';
import { validateWebhookUrl, webhookAllowlist } from './push/webhook-url.ts';

export interface PushSenderOptions {
  /** Host names, IP literals or IPv4 CIDR ranges (`10.0.0.0/8`) that may be private (the allowlist for local receivers). */
  readonly allowHosts?: readonly string[];
  readonly attemptsMax?: number;
  readonly retryBaseMs?: number;
  readonly timeoutMs?: number;
  readonly onDeliveryFailed?: (config: TaskPushNotificationConfig, error: unknown) => void;
}

export interface PushSender extends PushDispatcher {
  /** Throws InvalidParams when the URL is not an allowed webhook target. */
  validate(url: string): Promise<void>;
  /** Resolves when every queued delivery has finished (delivered or given up). */
  idle(): Promise<void>;
  close(): void;
}

export function createPushSender(options: PushSenderOptions = {}): PushSender {
  const state: PushSenderState = {
    allow: webhookAllowlist(options.allowHosts ?? []),
    attemptsMax: options.attemptsMax ?? a2aPushAttemptsMax,
    retryBaseMs: options.retryBaseMs ?? a2aPushRetryBaseMs,
    timeoutMs: options.timeoutMs ?? a2aPushTimeoutMs,
    onDeliveryFailed: options.onDeliveryFailed,
    queues: new Map(),
    controller: new AbortController(),
  };
  return {
    validate: (url) => validateWebhookUrl(state.allow, url),
    dispatch: (config, event) => enqueueDelivery(state, config, event),
    idle: () => deliveriesIdle(state),
    close: () => state.controller.abort(),
  };
}
