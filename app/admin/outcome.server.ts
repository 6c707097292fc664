// What an admin form post answers: `{ok: true, …}` or `{ok: false, error}`
// with a sentence the page can show, in the admin's language where the
// sentence is the admin's own. Domain errors carry (English) sentences already;
// anything unexpected is logged and shown as a generic sentence, never raw.
import { json } from "@remix-run/node";
import { ApiError } from "~/lib/api/errors";
import { errorFields, log } from "~/lib/log.server";
import { ADMIN_TEXTS, adminLang } from "~/i18n/admin";

export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string };

/** Code of the error idField throws; worded in the admin's language here. */
const ITEM_GONE = "item_gone";

export async function outcome<T extends object>(request: Request, work: () => Promise<T>) {
  const t = ADMIN_TEXTS[adminLang(request)].common;
  try {
    return json<Outcome<T>>({ ok: true, ...(await work()) });
  } catch (err) {
    // Domain errors are written for people; a 500 may carry internals.
    if (err instanceof ApiError && err.status !== 500) {
      return json<Outcome<T>>({ ok: false, error: err.code === ITEM_GONE ? t.itemGone : err.message }, { status: err.status });
    }
    if (err instanceof Response) throw err; // Shopify's re-authentication and redirects
    log.error("admin action failed", errorFields(err));
    return json<Outcome<T>>({ ok: false, error: t.genericError }, { status: 500 });
  }
}

/** A form field as a string ("" when absent). */
export const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** A positive integer id from a form field, or a 400 (worded by outcome). */
export function idField(form: FormData, name = "id"): number {
  const id = Number(field(form, name));
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(400, ITEM_GONE, "That item no longer exists. Reload the page.");
  return id;
}
