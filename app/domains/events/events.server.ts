// Domain events: what the core domains tell whoever listens, so that the
// integrations built on them (the customer metafield mirror, the Shopify Flow
// triggers) are wired at the composition root (app/background.server.ts)
// instead of being called by the domains they react to. The event map below
// is the whole vocabulary, each name with its payload's type.
//
// Delivery is in-process and synchronous: `publish` awaits each subscriber in
// turn, in the request or job that made the change, after its transaction
// committed (these integrations queue their own outbox rows, after the commit
// as they always did: a crash in between leaves them one change behind).
// A subscriber that throws is logged and changes nothing for the publisher.
import { errorFields, log } from "~/lib/log.server";
import type { AlertKind } from "~/domains/plans/plans";

/** An alert-worthy change of a product that shoppers saved, as the alerts domain detected it (alerts.server.ts). */
export interface WishlistedProductChange {
  kind: AlertKind;
  /** The installed shop whose platform spoke; null for a product of no installed shop (a scraped page re-read on a schedule). */
  shopId: number | null;
  partnerId: number | null;
  productId: number;
  /** The variant that changed; null when the product has no variants we know. */
  variantId: string | null;
  /** Price drop: the new and the previous price and the 30-day low, minor units of `currency`. */
  priceMinor: number | null;
  previousPriceMinor: number | null;
  lowest30DaysMinor: number | null;
  currency: string | null;
  /** Units in stock now (back in stock, low stock); null when untracked. */
  quantity: number | null;
  /** How many list items hold the product (for this variant or the whole product). */
  saves: number;
  at: Date;
}

export interface DomainEvents {
  /** A shopper's saved items changed (a save, a removal, a move, an account merged into theirs). */
  "saves.changed": { userId: string };
  /** A shop's customer was unlinked from their shopper account: their mirror now says nothing is saved. */
  "customer.unlinked": { shopId: number; customerId: string };
  /** A save added a new item to a list. `shopId`: the shop whose widget saved it, if any. */
  "item.added": { itemId: number; userId: string; shopId: number | null; productId: number };
  /** A list was shared (its share link made public). */
  "list.shared": { id: number; ownerId: string; name: string; shareToken: string; sharedAt: Date };
  /** The alerts saw a price drop, a restock or low stock of a saved product (whatever the shop's e-mail settings), after storing it. */
  "product.changed": WishlistedProductChange;
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
