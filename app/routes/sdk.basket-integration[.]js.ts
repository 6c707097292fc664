// A deprecated script path (SPEC 9): permanent redirect to the canonical file.
import { redirectDeprecatedScript } from "~/api/deprecated-script";

export const loader = redirectDeprecatedScript;
export const action = redirectDeprecatedScript;
