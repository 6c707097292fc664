// Who a partner request acts for, whichever credential it came with.

export const PARTNER_ROLES = ["owner", "member"] as const;
export type PartnerRole = (typeof PARTNER_ROLES)[number];

/** The partner of a personal access token, or of a portal user (null if none). */
export interface PartnerPrincipal {
  partnerId: number | null;
  /** The portal user of a user token; null for a personal access token. */
  userId: string | null;
  /** The role it acts with in that partner (a token's is its creator's, read now); null without a partner. */
  role: PartnerRole | null;
  /** The portal user whose rights these are (userId, or the token's creator): tokens minted now record them. */
  actingFor: string | null;
}
