// /persona/{id}/chat.md: the conversation as Markdown (docs/product.md, Chat: export and import),
// under a line saying the replies are AI-generated and by what. Another creator's persona is a 404.
import { chatFileLoader } from "~/services/index.server";

export const loader = chatFileLoader("md");
