// Work that runs beside requests. Started and stopped by the server entry
// (app/server/main.ts) through entry.server.tsx, in every worker process.
// - Per process (they keep this process's in-memory state): flushing its
//   request counts, listening for other processes' changes (PostgreSQL),
//   and polling revoked keys and sign-in sessions.
// - Once per deployment: pruning rows past their use, delivering the outbox,
//   queueing the reminder digests that are due and the scheduled re-read of
//   scraped products for alerts run only in the process holding the "background" job lease
//   (domains/system/job-lease.server.ts), whatever the number of workers
//   and machines sharing the database.
import { startRequestCounterFlush, stopRequestCounterFlush } from "~/domains/metering/request-counter.server";
import { startPruning, stopPruning } from "~/flows/pruning.server";
import { registerMailRenderer, registerOutboxJob, startOutboxWorker, stopOutboxWorker } from "~/domains/outbox/worker.server";
import { renderMail } from "~/pages/emails";
import { customerMirrorJob } from "~/domains/customer-accounts/metafield-mirror.server";
import { fireWishlistedProductChange, flowTriggerJob, queueListShared, queueProductAdded } from "~/domains/flow/triggers.server";
import { queueCustomerMirror, queueCustomerMirrors } from "~/domains/customer-accounts/mirror-queue.server";
import { subscribe } from "~/domains/events/events.server";
import { alertFanoutJob, onWishlistedProductChange } from "~/domains/alerts/alerts.server";
import { startReminders, stopReminders } from "~/domains/alerts/reminders.server";
import { startRescrapeAlerts, stopRescrapeAlerts } from "~/domains/alerts/rescrape-alerts.server";
import { offlineAdmin } from "~/shopify.server";
import { BASKET_WEBHOOKS } from "~/domains/baskets/baskets.server";
import { startKeyStatusPoll, stopKeyStatusPoll } from "~/domains/keys/key-status.server";
import { startSessionRevocationPoll, stopSessionRevocationPoll } from "~/domains/identity/session-revocations.server";
import { underLease } from "~/domains/system/job-lease.server";
import { startChangeListener, stopChangeListener } from "~/db/change-signals.server";
import { productImageJob } from "~/domains/products/product-facts.server";
import { cdnPurgeJob } from "~/domains/cdn/purge.server";
import { queuedWebhookJob } from "~/webhooks/queued.server";

// The integrations hear the core domains' events (domains/events/events.server.ts: in-process, awaited
// after the change committed) rather than being called by them; each queues its own outbox rows.
// The customer metafield mirror: a shopper's saves changed, or a customer's link to them ended.
subscribe("saves.changed", ({ userId }) => queueCustomerMirrors(userId));
subscribe("customer.unlinked", ({ shopId, customerId }) => queueCustomerMirror(shopId, customerId));
// Shopify Flow triggers: a product added to a list, a list shared.
subscribe("item.added", (save) => queueProductAdded(save));
subscribe("list.shared", (list) => queueListShared(list));

// E-mails are queued as models and written by their templates when sent (app/pages/emails/).
registerMailRenderer(renderMail);
// Images of products the shops' webhooks name are copied after the webhook is answered.
registerOutboxJob(productImageJob);
// So is the work of the high-volume webhook topics (products, inventory, orders, refunds).
registerOutboxJob(queuedWebhookJob);
// CDN purges (CDN_PURGE_URL) after changes to share pages and previews.
registerOutboxJob(cdnPurgeJob);
// A price drop on a product many saved: the batches after the first, queued by the job (docs/alerts.md "Fan-out").
registerOutboxJob(alertFanoutJob);

// The customer metafield mirror and the Flow triggers write with the shop's offline session.
if (offlineAdmin) {
  const adminFor = offlineAdmin;
  registerOutboxJob(customerMirrorJob(adminFor));
  registerOutboxJob(flowTriggerJob(adminFor));
  // The price drops and restocks the alerts detect are Flow triggers too (low stock has none).
  onWishlistedProductChange(async (change) => {
    // Products of no installed shop (scraped pages) have no shop to trigger a Flow in.
    if (change.kind === "low_stock" || change.shopId === null) return;
    await fireWishlistedProductChange(change.shopId, {
      kind: change.kind,
      productId: change.productId,
      priceMinor: change.priceMinor ?? undefined,
      previousPriceMinor: change.previousPriceMinor ?? undefined,
      currency: change.currency ?? undefined,
      changedAt: change.at,
    });
  });
}

const deploymentJobs = underLease("background", {
  start() {
    startPruning();
    startOutboxWorker(BASKET_WEBHOOKS);
    startReminders();
    startRescrapeAlerts();
  },
  async stop() {
    await Promise.all([stopPruning(), stopOutboxWorker(), stopReminders(), stopRescrapeAlerts()]);
  },
});

export function startBackgroundJobs(): void {
  startRequestCounterFlush();
  startChangeListener();
  startKeyStatusPoll();
  startSessionRevocationPoll();
  deploymentJobs.start();
}

/** Stops the timers, writes what is pending and releases the lease, so a shutdown loses no counts or half-recorded deliveries. */
export async function stopBackgroundJobs(): Promise<void> {
  await Promise.all([stopRequestCounterFlush(), deploymentJobs.stop(), stopKeyStatusPoll(), stopSessionRevocationPoll(), stopChangeListener()]);
}
