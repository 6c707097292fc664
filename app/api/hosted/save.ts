import { endpoint, route } from "~/api/endpoint.server";
import { saveProduct } from "~/domains/products/save.server";

const hosted = { kind: "hosted", partnerId: null, shopId: null, domain: null, widgetOrigin: null } as const;

export const loader = endpoint({ POST: route("user", ({ user, body }) => saveProduct(user.userId, body, hosted)) });
export const action = loader;
