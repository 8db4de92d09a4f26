// useLayoutEffect in the browser, where it runs before paint; on the server (where React warns
// that a layout effect does nothing) the plain effect, which does nothing there either.
import { useEffect, useLayoutEffect } from "react";

export const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
