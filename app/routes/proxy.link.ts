// POST /proxy/link (`/apps/wishlist/link`): the signed-in customer asks to join
// their store wishlist with the account they sign in to on APP_URL; the answer
// is the join page's address, a short-lived link token in its fragment
// (app/flows/account-link.server.ts).
import type { ActionFunctionArgs } from "@remix-run/node";
import { linkOffer } from "~/flows/account-link.server";
import { answerProxy, requireCustomer } from "~/proxy/app-proxy.server";

export const action = ({ request }: ActionFunctionArgs) =>
  answerProxy(request, "POST", async (proxy) => linkOffer(proxy.shop, requireCustomer(proxy), proxy.lang));
export const loader = action;
