// sharp (libvips) is loaded when an image is first drawn, checked or converted, not at start:
// it adds about 20 MB to the server's memory, and most requests never touch an image
// (docs/decisions/012-a-small-server.md).
import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | undefined;

export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}
