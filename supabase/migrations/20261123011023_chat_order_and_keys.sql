-- Chat messages keep their insertion order (seq) and the no-JavaScript send form's
-- idempotency key (client_key, unique per persona), so a double submit stores one message.
ALTER TABLE "chat_messages" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "client_key" uuid;--> statement-breakpoint
CREATE INDEX "chat_messages_persona_id_seq_idx" ON "chat_messages" USING btree ("persona_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_persona_id_client_key_idx" ON "chat_messages" USING btree ("persona_id","client_key");