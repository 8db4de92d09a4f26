// The per-request nonce that lets Remix's inline scripts run under the Content-Security-Policy.
// Set by app/entry.server.tsx on the server; in the browser it is not needed (empty).
import { createContext, useContext } from "react";

const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export const useNonce = () => useContext(NonceContext);
