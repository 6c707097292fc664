// A partner's plan changes: the partner row, then every process's cached key
// configuration of that partner (the limits of its keys follow the plan).
import { invalidateKeyConfig } from "~/domains/keys/key-config.server";
import { setPartnerPlan } from "~/domains/partners/partners.server";

export async function changePartnerPlan(partnerId: number, plan: string) {
  const partner = await setPartnerPlan(partnerId, plan);
  invalidateKeyConfig(partnerId);
  return partner;
}
