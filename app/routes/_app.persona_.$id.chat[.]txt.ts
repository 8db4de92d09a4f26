// /persona/{id}/chat.txt: the conversation with a persona as plain text, oldest first (docs/product.md,
// Chat): who said it, when (UTC), and for each reply the persona version it was written with, so
// 'which version said this?' has an answer outside the app too; under the title, a line saying the
// replies are AI-generated and by what (docs/product.md, AI disclosure). Another creator's persona is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";

import { chatExportNotice, listMessages, getPersona, orNotFound, requireUser, responseHeaders } from "~/services/index.server";

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { user, ctx } = await requireUser(request, context);
  const id = params.id ?? "";
  const persona = await orNotFound(ctx, () => getPersona(user, id));
  const messages = await orNotFound(ctx, () => listMessages(user, id));
  const lines = [
    `Chat with ${persona.name}, exported ${utc(new Date().toISOString())}`,
    chatExportNotice(persona.name),
    "",
    ...messages.flatMap((message) => [
      message.role === "user"
        ? `You (${utc(message.timestamp)}):`
        : `${persona.name} (${utc(message.timestamp)}${message.version ? `, version ${message.version}` : ""}):`,
      message.content,
      "",
    ]),
  ];
  if (messages.length === 0) lines.push("No messages yet.");
  const file = `${persona.name.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "") || "persona"}-chat.txt`;
  const headers = responseHeaders(ctx, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Disposition": `attachment; filename="chat.txt"; filename*=UTF-8''${encodeURIComponent(file)}`,
    "Cache-Control": "private, no-store",
  });
  return new Response(lines.join("\n"), { headers });
}
