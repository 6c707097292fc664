import { discontinuedEndpoint } from "./discontinued";

export const loader = discontinuedEndpoint();
export const action = loader;
