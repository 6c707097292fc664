// Joining a store customer's account with the account they sign in to on
// APP_URL, so one wishlist follows them across shops (docs/storefront-protocol.md,
// "Who is recognised how"). The store's wishlist page, answered for a customer
// Shopify vouched for, hands out a short-lived link token naming that
// customer and the account the store knows them by; the shopper opens
// `/dialog/link` on APP_URL, signs in (e-mail and password), and the account
// signed in takes over the store account's lists with the account migration,
// while the customer's link is re-pointed to it. From then on the store
// recognises the joined account. Each further shop is joined the same way.
//
// The token is a capability for one customer's store wishlist, so it lives
// ten minutes, travels only in the URL fragment of the popup, and is spent by
// its own use: it names the store account it was minted for, and once the
// link points elsewhere it moves nothing.
import { db } from "~/db.server";
import { isUniqueViolation } from "~/db/errors";
import { env } from "~/env.server";
import { moveAccount, NOTHING_MOVED, type Moved } from "./account-merge.server";
import { noteRevokedSessionsOf, type Identity } from "~/domains/identity/identity.server";
import { signToken, verifyToken } from "~/domains/identity/jwt.server";
import { queueCustomerMirrors } from "~/domains/customer-accounts/mirror-queue.server";
import { ApiError, badRequest, forbidden, notFound } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { adminQuery, type AdminGraphql } from "~/domains/shops/admin-graphql.server";
import { ensureConsent } from "~/domains/widget/consent.server";
import { isCustomerId, shopperOfCustomer } from "~/domains/shop-customers/shop-customers.server";
import type { StorefrontLang, StorefrontShop } from "./storefront.server";

const AUDIENCE = "wish:shop-customer-link";
export const LINK_TOKEN_TTL_SECONDS = 600;

const conflict = (code: string, message: string) => new ApiError(409, code, message);

/**
 * `POST /apps/wishlist/link`: the address of the join page for this customer,
 * the link token in its fragment (never sent to a server, never in a Referer).
 */
export async function linkOffer(shop: StorefrontShop, customerId: string, lang: StorefrontLang) {
  const { userId } = await shopperOfCustomer(shop.id, customerId);
  const { token, expiresAt } = await signToken(
    { shop: shop.id, shop_domain: shop.primaryDomain ?? shop.domain, customer: customerId },
    { use: "link", subject: userId, audience: AUDIENCE, ttlSeconds: LINK_TOKEN_TTL_SECONDS },
  );
  const fragment = new URLSearchParams({ token, locale: lang });
  return { ok: true as const, url: `${new URL("/dialog/link", env.APP_URL).href}#${fragment}`, expires_at: expiresAt };
}

/** The shop's Admin API with its offline session (the route passes the Shopify app's), or null when there is none. */
export type AdminFor = (shopDomain: string) => Promise<AdminGraphql | null>;

/** `a•••@example.com`: enough to recognise one's own address, not enough to learn someone else's. */
export function maskEmail(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  return `${email.slice(0, 1)}•••@${email.slice(at + 1)}`;
}

const CUSTOMER_EMAIL = `query WishlistJoinCustomer($id: ID!) { customer(id: $id) { email } }`;
/** The join page waits this long for Shopify before it names the customer without their address. */
const EMAIL_TIMEOUT_MS = 5_000;

/** The customer's e-mail address from the shop's Admin API (write_customers), or null when it cannot be read. */
async function customerEmail(adminFor: AdminFor | null, shopDomain: string, customerId: string): Promise<string | null> {
  if (!adminFor) return null;
  let timer: NodeJS.Timeout | undefined;
  const read = (async () => {
    const graphql = await adminFor(shopDomain);
    if (!graphql) return null;
    const data = await adminQuery<{ customer: { email: string | null } | null }>(graphql, CUSTOMER_EMAIL, { id: `gid://shopify/Customer/${customerId}` });
    return data.customer?.email ?? null;
  })();
  try {
    return await Promise.race([read, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), EMAIL_TIMEOUT_MS)))]);
  } catch (err) {
    log.warn("join preview: customer e-mail not read", { shopDomain, ...errorFields(err) });
    return null;
  } finally {
    clearTimeout(timer);
  }
}

interface Offer {
  shopId: number;
  customerId: string;
  storeUserId: string;
  shop: { partnerId: number; domain: string; primaryDomain: string | null; name: string | null };
  /** The account is joined with this customer already (a second click). */
  done: boolean;
}

/** What a link token offers this account, with every refusal of the join (see linkShopCustomer). */
async function offerOf(user: Identity, linkToken: string): Promise<Offer> {
  if (user.isAnonymous) throw forbidden("account_required", "Sign in with your e-mail address to join your wishlists");
  const claims = await verifyToken(linkToken, { use: "link", audience: AUDIENCE });
  const shopId = claims?.shop;
  const customerId = claims?.customer;
  if (!claims || typeof shopId !== "number" || !isCustomerId(customerId)) {
    throw badRequest("invalid_link", "The link has expired or is not valid; open it again from the store's wishlist page");
  }
  const storeUserId = claims.sub!;
  const [link, shop] = await Promise.all([
    db.shopCustomer.findUnique({ where: { shopId_customerId: { shopId, customerId } }, select: { userId: true, user: { select: { isAnonymous: true } } } }),
    db.platformShop.findUnique({ where: { id: shopId }, select: { partnerId: true, domain: true, primaryDomain: true, name: true, active: true } }),
  ]);
  if (!link || !shop?.active) throw notFound("not_found", "The store no longer knows this customer");
  const offer = { shopId, customerId, storeUserId, shop };
  if (link.userId === user.userId) return { ...offer, done: true };
  if (link.userId !== storeUserId || !link.user.isAnonymous) {
    throw conflict("link_used", "This store's wishlist was joined with an account already");
  }
  const theirs = await db.shopCustomer.findUnique({ where: { shopId_userId: { shopId, userId: user.userId } }, select: { customerId: true } });
  if (theirs) throw conflict("account_already_linked", "Your account is joined with another customer of this store");
  return { ...offer, done: false };
}

export interface JoinPreview {
  ok: true;
  shop: { domain: string; host: string; name: string | null };
  /** The store's customer account, its e-mail masked; null when the shop's Admin API did not tell it. */
  customer: { email_masked: string | null };
  /** What joins the account: the store account's lists and their items. */
  moves: { lists: number; items: number };
  /** True when this account is joined with this customer already. */
  joined: boolean;
}

/**
 * `POST /hosted/link-shop-customer/preview {link_token}`: what a join would
 * do, for the confirmation on the join page, which names the store, the
 * store's customer account and what moves before anything is joined (a
 * forwarded link must be recognisable). Refuses what the join refuses.
 */
export async function previewLink(user: Identity, linkToken: string, adminFor: AdminFor | null): Promise<JoinPreview> {
  const offer = await offerOf(user, linkToken);
  const { shop } = offer;
  const [email, lists, items] = await Promise.all([
    customerEmail(adminFor, shop.domain, offer.customerId),
    offer.done ? 0 : db.wishlist.count({ where: { ownerId: offer.storeUserId } }),
    offer.done ? 0 : db.listItem.count({ where: { wishlist: { ownerId: offer.storeUserId } } }),
  ]);
  return {
    ok: true,
    shop: { domain: shop.domain, host: shop.primaryDomain ?? shop.domain, name: shop.name },
    customer: { email_masked: email ? maskEmail(email) : null },
    moves: { lists, items },
    joined: offer.done,
  };
}

export interface Joined {
  ok: true;
  shop_domain: string;
  /** False when the account was joined with this customer already (a second click). */
  joined: boolean;
  moved: Moved;
}

/**
 * `POST /hosted/link-shop-customer {link_token}`: the signed-in account takes
 * over the store account named in the token and becomes the customer's
 * account at that shop; the store then recognises the account (a
 * ShopperConsent for the shop's partner, which "Connected shops" on My lists
 * shows and undoes). The join page calls it only after the shopper confirmed
 * what previewLink said. Refused for a guest account (403), an expired or
 * forged token (400), a token whose store account is no longer the
 * customer's (409: spent, or joined with another account), and an account
 * already joined with another customer of that shop (409).
 */
export async function linkShopCustomer(user: Identity, linkToken: string): Promise<Joined> {
  const { shopId, customerId, storeUserId, shop, done } = await offerOf(user, linkToken);
  const shopDomain = shop.primaryDomain ?? shop.domain;
  const nothing: Moved = { ...NOTHING_MOVED };
  if (done) return { ok: true, shop_domain: shopDomain, joined: false, moved: nothing };

  const startedAt = new Date();
  let moved: Moved;
  try {
    moved = await db.$transaction(
      async (tx) => {
        // The link first: of two joins at once, one re-points it and the other finds it gone and moves nothing.
        const { count } = await tx.shopCustomer.updateMany({ where: { shopId, customerId, userId: storeUserId }, data: { userId: user.userId } });
        if (count !== 1) throw conflict("link_used", "This store's wishlist was joined with an account already");
        // Joining is consent for that store to recognise the account (docs/identity.md, "Consent").
        await ensureConsent(user.userId, shop.partnerId, shopDomain, tx);
        return moveAccount(tx, storeUserId, user.userId);
      },
      { maxWait: 10_000, timeout: 30_000 },
    );
  } catch (err) {
    // (shopId, userId) is unique: a concurrent join of this account with another customer of the shop won.
    if (isUniqueViolation(err)) throw conflict("account_already_linked", "Your account is joined with another customer of this store");
    throw err;
  }
  await noteRevokedSessionsOf(storeUserId, startedAt);
  await queueCustomerMirrors(user.userId);
  log.info("store customer joined", { shopId, lists: moved.lists, items: moved.items });
  return { ok: true, shop_domain: shopDomain, joined: true, moved };
}
