import { endpoint } from "~/api/endpoint.server";
import { productRoute } from "~/api/discover/product";

// Same answer as GET /discover/products/{productId}; under /products/* a bearer public key gets the X-RateLimit-* headers (SPEC 8.3).
export const loader = endpoint({ GET: productRoute });
export const action = loader;
