// /persona/{id}/chat.jsonl: the conversation as SillyTavern's chat file (docs/product.md, Chat:
// export and import): a header line, then one line per message; the header's metadata says the
// replies are AI-generated and by what. Another creator's persona is a 404.
import { chatFileLoader } from "~/services/index.server";

export const loader = chatFileLoader("jsonl");
