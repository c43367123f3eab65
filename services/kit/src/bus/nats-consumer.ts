import { AckPolicy, DeliverPolicy, nanos, type Consumer, type ConsumerConfig, type ConsumerInfo } from 'nats';
import { apiErrorCode, streamSubject, wireSubject } from './naming.js';
import type { NatsSubscriptionOptions } from './nats-subscription.js';

// A subscription's durable pull consumer on the server: what it should be, and making it so.

// How long a message delivered to an instance that then died waits before another instance gets it. Live instances
// keep every message they hold from expiring with `working()` heartbeats, so a slow handler is not redelivered.
export const ACK_WAIT_MS = 5_000;
// The server's "not found" error code for a consumer (JetStream API err_code).
const CONSUMER_NOT_FOUND = 10014;

type FilterConfig = Pick<ConsumerConfig, 'filter_subject' | 'filter_subjects'>;

/**
 * Creates the durable consumer of `o.spec`, or reconciles the existing one (another instance's, an older release's)
 * with what this subscription wants; returns it with the subjects to filter client-side (null: the server filters).
 */
export async function bindConsumer(
  o: NatsSubscriptionOptions,
): Promise<{ consumer: Consumer; clientFilter: string[] | null }> {
  const { spec, stream, jsm } = o;
  const { config: desired, clientFilter } = desiredConfig(o);
  let info = await consumerInfo(o);
  if (!info) {
    try {
      info = await jsm.consumers.add(stream, desired);
      o.log.info({ stream, filters: filtersOf(desired) }, 'consumer created');
    } catch (err) {
      // Another instance sharing the durable may have won the race; reconcile with its consumer.
      info = await consumerInfo(o);
      if (!info) throw err;
    }
  }
  const current = info.config;
  const filtersFixed = !o.filtersSupported();
  if (filtersFixed && !sameSet(filtersOf(current), filtersOf(desired))) {
    // Rewriting the filter on this server would stall the consumer; keep it and filter client-side.
    o.log.warn(
      { stream, current: filtersOf(current), wanted: filtersOf(desired) },
      'consumer filter differs but this NATS server (< 2.10) cannot change it safely; delete the consumer to apply',
    );
    desired.filter_subject = current.filter_subject;
    desired.filter_subjects = current.filter_subjects;
  }
  if (current.ack_policy !== AckPolicy.Explicit || current.deliver_policy !== DeliverPolicy.All) {
    throw new Error(
      `consumer ${spec.durable} on ${stream} exists with ack_policy=${current.ack_policy}, deliver_policy=${current.deliver_policy}; ` +
        'these cannot be changed in place, delete the consumer to recreate it',
    );
  }
  // Only a real difference triggers an update, so instances sharing the durable do not rewrite it on every start.
  if (
    current.ack_wait !== desired.ack_wait ||
    current.max_deliver !== desired.max_deliver ||
    !sameSet(filtersOf(current), filtersOf(desired))
  ) {
    await jsm.consumers.update(stream, spec.durable, {
      ack_wait: desired.ack_wait,
      max_deliver: desired.max_deliver,
      // Exactly one of the two is set; the undefined one is dropped from the request, which clears it.
      filter_subject: desired.filter_subject,
      filter_subjects: desired.filter_subjects,
    });
    o.log.info({ stream, filters: filtersOf(desired) }, 'consumer updated');
  }
  return { consumer: await o.js.consumers.get(stream, spec.durable), clientFilter };
}

function desiredConfig(o: NatsSubscriptionOptions): {
  config: Partial<ConsumerConfig> & { ack_wait: number; max_deliver: number };
  clientFilter: string[] | null;
} {
  const { spec, namespace } = o;
  let clientFilter: string[] | null;
  const wire = [...new Set(spec.subjects.map((s) => wireSubject(s, namespace)))];
  const contextWide = streamSubject(spec.context, namespace);
  let filter: FilterConfig;
  if (!o.filtersSupported()) {
    // Servers before 2.10 take one filter and cannot change it later, so read the whole context (a filter that
    // never changes between releases) and drop what this subscription doesn't want here.
    filter = { filter_subject: contextWide };
    clientFilter = wire.includes(contextWide) ? null : spec.subjects;
  } else if (wire.length === 1) {
    filter = { filter_subject: wire[0] };
    clientFilter = null;
  } else {
    filter = { filter_subjects: wire };
    clientFilter = null;
  }
  const config = {
    durable_name: spec.durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ACK_WAIT_MS),
    // Unbounded on the server on purpose: the poison decision is ours, by handler failures (FailureLedger), not by
    // deliveries — shutdowns, crashes and lost connections redeliver messages that never failed. A server-side
    // limit would also silently drop a message whose parking failed (onPoison) instead of dead-lettering it.
    max_deliver: -1,
    ...filter,
  };
  return { config, clientFilter };
}

/** The durable consumer's info, or null when it does not exist. */
export async function consumerInfo(o: NatsSubscriptionOptions): Promise<ConsumerInfo | null> {
  try {
    return await o.jsm.consumers.info(o.stream, o.spec.durable);
  } catch (err) {
    if (apiErrorCode(err) === CONSUMER_NOT_FOUND) return null;
    throw err;
  }
}

function filtersOf(config: FilterConfig): string[] {
  if (config.filter_subjects && config.filter_subjects.length > 0) return config.filter_subjects;
  return config.filter_subject ? [config.filter_subject] : [];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}
