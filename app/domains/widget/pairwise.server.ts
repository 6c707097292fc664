// Identifiers a partner's page sees, minted by the server alone (docs/identity.md):
// - the widget session id (`sid`): 16 random bytes and a MAC over them and the
//   partner, so a page can neither choose a sid nor bring one minted for another
//   partner; init keeps a sent sid only when its MAC holds for this partner.
// - the pairwise shopper id: what a partner sees instead of the account id, the
//   same for one shopper on one partner and unrelated across partners.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getPairwiseKey } from "~/domains/secrets/secrets.server";

const RANDOM_CHARS = 22; // 16 bytes, base64url
const MAC_CHARS = 22;
const SID_SHAPE = /^[\w-]{44}$/;

const mac = async (label: string, chars: number) =>
  createHmac("sha256", await getPairwiseKey()).update(label).digest("base64url").slice(0, chars);

const sidMac = (partnerId: number, random: string) => mac(`sid:${partnerId}:${random}`, MAC_CHARS);

export async function newWidgetSessionId(partnerId: number): Promise<string> {
  const random = randomBytes(16).toString("base64url");
  return random + (await sidMac(partnerId, random));
}

/** Whether `sid` is one the server minted for this partner. */
export async function isWidgetSessionIdOf(partnerId: number, sid: string): Promise<boolean> {
  if (!SID_SHAPE.test(sid)) return false;
  const expected = Buffer.from(await sidMac(partnerId, sid.slice(0, RANDOM_CHARS)));
  const given = Buffer.from(sid.slice(RANDOM_CHARS));
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The shopper's id as this partner sees it (`sub` and `user.id` of its shopper credentials). */
export async function pairwiseShopperId(partnerId: number, userId: string): Promise<string> {
  return `ps_${await mac(`shopper:${partnerId}:${userId}`, 32)}`;
}
