// What the server does to a rendered document before it answers it.

/**
 * The document without NUL bytes. React 18's Node writer leaves NUL bytes where a character of
 * three or four UTF-8 bytes meets the end of its 2 KB buffer (facebook/react#31134, fixed in
 * React 19); the character itself follows whole. A NUL byte has no place in an HTML document
 * (the parser replaces it), and UTF-8 never uses the byte 0 inside another character, so
 * dropping every one leaves exactly the page React meant to write.
 */
export function withoutNulBytes(html: Buffer): Buffer {
  let at = html.indexOf(0);
  if (at < 0) return html;
  const out = Buffer.allocUnsafe(html.length);
  let written = 0;
  let from = 0;
  while (at >= 0) {
    written += html.copy(out, written, from, at);
    from = at + 1;
    at = html.indexOf(0, from);
  }
  written += html.copy(out, written, from);
  return out.subarray(0, written);
}
