// The ad studio (SPEC 7.7) was switched off; its routes answer 410 so old
// clients learn why instead of getting a 404.
import { endpoint, route } from "~/api/endpoint.server";
import { ApiError } from "~/lib/api/errors";

export const DISCONTINUED_AT = "2026-08-30";

export const disabled = route(
  "none",
  {
    summary: `Discontinued on ${DISCONTINUED_AT}: answers 410 ad_studio_disabled`,
    errors: { ad_studio_disabled: 410 },
  },
  () => {
    throw new ApiError(410, "ad_studio_disabled", `The ad studio was discontinued on ${DISCONTINUED_AT} and its data archived.`);
  },
);

/** Every method answers 410 except the GET given. */
export const discontinuedEndpoint = (get: typeof disabled = disabled) =>
  endpoint({ GET: get, POST: disabled, PUT: disabled, PATCH: disabled, DELETE: disabled });
