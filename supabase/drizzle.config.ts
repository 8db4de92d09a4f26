import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./app/infra/db/schema.server.ts",
  out: "./supabase/migrations",
  schemaFilter: ["public"],
  migrations: { prefix: "supabase" },
  entities: { roles: { provider: "supabase" } },
  casing: undefined,
});
