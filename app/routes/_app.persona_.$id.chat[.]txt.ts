// /persona/{id}/chat.txt: the conversation with a persona as plain text, oldest first (docs/product.md,
// Chat): who said it, when (UTC), and for each reply the persona version it was written with, so
// 'which version said this?' has an answer outside the app too; under the title, a line saying the
// replies are AI-generated and by what (docs/product.md, AI disclosure). Another creator's persona is a 404.
import { chatFileLoader } from "~/services/index.server";

export const loader = chatFileLoader("txt");
