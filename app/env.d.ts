/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

export {};

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
  interface AppLoadContext {
    /** The client's address (app/server.mjs); absent when a test calls a loader or action directly. */
    clientAddress?: string;
  }
}
