// `POST /widget/init` (SPEC 4.1, 5, 3): checks the public key, the page's
// origin against the key's allow-list and the shop's subscription, and mints
// a widget token. Usage figures of the partner's month ride along.
import { ApiError, badRequest, forbidden } from "~/lib/api/errors";
import { touchKeyUsed } from "~/domains/keys/keys.server";
import { keyConfig } from "~/domains/keys/key-config.server";
import { widgetKeyWorks } from "~/domains/keys/key-status.server";
import { ALLOWLIST_RULE_DATE, isKeyUsable } from "~/domains/keys/key-rules";
import { effectiveRequestPlan, getPlan } from "~/domains/plans/plans";
import { currentPeriod } from "~/domains/metering/usage";
import { monthTotal } from "~/domains/metering/actions.sql.server";
import { issueWidgetToken, WIDGET_TOKEN_MINUTES } from "./token.server";
import { isWidgetSessionIdOf, newWidgetSessionId } from "./pairwise.server";
import { originAllowed, originHost } from "./origin";


/** The init body as the route's schema read it: origin trimmed and non-empty; a public_key or sid that is no string is ignored. */
export interface InitBody {
  origin: string;
  public_key?: string;
  sid?: string;
}

export interface InitRequest {
  publicKey: string | null;
  body: InitBody;
}

export async function initWidget({ publicKey, body: input }: InitRequest) {
  const key = publicKey ?? input.public_key ?? null;
  const origin = input.origin;
  if (!key) throw badRequest("invalid_input", "public_key is required (Authorization: Bearer pk_… or in the body)");
  const host = originHost(origin);
  if (!host) throw badRequest("invalid_input", "origin must be an http(s) origin like https://shop.example.com");

  const now = new Date();
  // The key's configuration from the in-process cache; whether it was revoked or rotated since,
  // from the key-status view (both without a database read while warm).
  const config = await keyConfig(key, now.getTime());
  if (!config || !isKeyUsable(config.key, now) || !(await widgetKeyWorks(config.key.id, now.getTime()))) {
    throw forbidden("unknown_key", "This public key does not exist or is not active");
  }
  const { key: row, partner, shops } = config;
  // A platform partner whose every shop uninstalled the app: its keys are not active any more.
  const activeShops = shops.filter((s) => s.active);
  if (shops.length > 0 && activeShops.length === 0) {
    throw forbidden("unknown_key", "This public key's shop has uninstalled the app");
  }

  const allowList = row.allowedDomains;
  if (row.environment === "live" && row.createdAt > ALLOWLIST_RULE_DATE && allowList.length === 0) {
    throw forbidden("allowlist_required", "This live key has no allowed domain", {
      hint: "Add the shop's domain to the key's allowed domains (host without scheme, e.g. shop.example.com or *.example.com)",
    });
  }
  if (!originAllowed(host, allowList)) {
    throw forbidden("origin_not_allowed", `Origin ${origin} is not on this key's allow-list`);
  }

  const shop = activeShops.find((s) => s.domain === host || s.primaryDomain === host) ?? activeShops[0] ?? null;
  const plan = getPlan(partner.plan);
  if (!plan) throw new ApiError(500, "plan_limits_not_found", `Unknown plan ${JSON.stringify(partner.plan)}`);
  if (shop && shop.subscriptionStatus !== "active" && shop.trialEndsAt <= now && plan.id === "free") {
    throw forbidden("subscription_required", "The shop's trial has ended. Choose a plan in the app to turn the wishlist button back on.", {
      trial_expired: true,
    });
  }

  const total = await monthTotal(partner.id, currentPeriod(now).period);
  const limit = plan.includedActions;
  const requestPlan = effectiveRequestPlan(row.requestPlan, partner.plan);
  // A page keeps its sid only when the server minted it for this partner: no page chooses one.
  const sid = input.sid !== undefined && (await isWidgetSessionIdOf(partner.id, input.sid)) ? input.sid : await newWidgetSessionId(partner.id);
  const { token } = await issueWidgetToken({
    partnerId: partner.id,
    apiKeyId: row.id,
    origin: new URL(origin).origin,
    shopId: shop?.id ?? null,
    sid,
    requestPlan,
  });
  await touchKeyUsed(row.id, now);
  const basket = config.basket;
  return {
    apiKey: { id: row.id, requestPlan },
    usage: { total, limit },
    body: {
      token,
      partner_id: partner.id,
      api_key_id: row.id,
      exp_minutes: WIDGET_TOKEN_MINUTES,
      overage: limit !== null && total > limit,
      basketConfig: basket
        ? { id: basket.publicId, layout: basket.layout, primaryColor: basket.primaryColor, checkout: basket.checkout }
        : null,
      sid,
    },
  };
}
