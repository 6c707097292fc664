// Domain events: what the core domains tell whoever listens, so that the
// integrations built on them (the customer metafield mirror, Shopify Flow
// triggers) are wired at the composition root (app/background.server.ts)
// instead of being called by the domains they react to. The event map below
// is the whole vocabulary, each name with its payload's type.
//
// Delivery is in-process and synchronous: `publish` awaits each subscriber in
// turn, in the request that made the change, after its transaction committed
// (these integrations queue their own outbox rows and were queued after the
// commit before: a crash in between leaves them one change behind, as it did).
// A subscriber that throws is logged and changes nothing for the publisher.
import { errorFields, log } from "~/lib/log.server";

export interface DomainEvents {
  /** A shopper's saved items changed (a save, a removal, a move, an account merged into theirs). */
  "saves.changed": { userId: string };
  /** A shop's customer was unlinked from their shopper account: their mirror now says nothing is saved. */
  "customer.unlinked": { shopId: number; customerId: string };
  /** A save added a new item to a list. `shopId`: the shop whose widget saved it, if any. */
  "item.added": { itemId: number; userId: string; shopId: number | null; productId: number };
  /** A list was shared (its share link made public). */
  "list.shared": { id: number; ownerId: string; name: string; shareToken: string; sharedAt: Date };
}

export type EventName = keyof DomainEvents;
type Subscriber<K extends EventName> = (payload: DomainEvents[K]) => void | Promise<void>;

const subscribers = new Map<EventName, Set<Subscriber<never>>>();

/** Subscribes to one event; returns the unsubscribe function. */
export function subscribe<K extends EventName>(name: K, subscriber: Subscriber<K>): () => void {
  const set = subscribers.get(name) ?? subscribers.set(name, new Set()).get(name)!;
  set.add(subscriber as Subscriber<never>);
  return () => set.delete(subscriber as Subscriber<never>);
}

/** Tells every subscriber of `name`, one after the other; never throws. */
export async function publish<K extends EventName>(name: K, payload: DomainEvents[K]): Promise<void> {
  const set = subscribers.get(name);
  if (!set) return;
  for (const subscriber of set) {
    try {
      await (subscriber as Subscriber<K>)(payload);
    } catch (err) {
      log.error("event subscriber failed", { event: name, ...errorFields(err) });
    }
  }
}
