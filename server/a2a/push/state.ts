/**
 * The push sender's state (push-sender.ts wires it): the SSRF allowlist, the retry bounds, one ordered queue of
 * events per webhook config, and the signal that stops every delivery on close. Operations: deliver.ts, and the
 * guard in webhook-url.ts.
 */
import type { StreamResponse, TaskPushNotificationConfig } from '../../../src/a2a/types.ts';
import type { WebhookAllowlist } from './webhook-url.ts';

/** The events still to send to one webhook config, in order, and the delivery loop draining them. */
interface DeliveryQueue {
  readonly items: StreamResponse[];
  readonly config: TaskPushNotificationConfig;
  running: Promise<void> | undefined;
}

export interface PushSenderState {
  readonly allow: WebhookAllowlist;
  readonly attemptsMax: number;
  readonly retryBaseMs: number;
  readonly timeoutMs: number;
  readonly onDeliveryFailed: ((config: TaskPushNotificationConfig, error: unknown) => void) | undefined;
  /** By task id and config id; a queue goes once it drains. */
  readonly queues: Map<string, DeliveryQueue>;
  /** Aborted by close(): in-flight requests end, queued events are dropped. */
  readonly controller: AbortController;
}
