// The CSP nonce of the document being rendered (set in entry.server.tsx,
// read by root.tsx for Remix's inline scripts). Empty in the browser.
import { createContext, useContext } from "react";

export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
