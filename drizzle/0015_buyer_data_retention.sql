ALTER TABLE "contact_requests" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "quarantined_purchases" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "contact_requests_unerased_created_at_idx" ON "contact_requests" USING btree ("created_at") WHERE "contact_requests"."erased_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_unerased_created_at_idx" ON "outbox" USING btree ("created_at") WHERE "outbox"."erased_at" is null;--> statement-breakpoint
CREATE INDEX "purchases_unerased_event_id_idx" ON "purchases" USING btree ("event_id") WHERE "purchases"."erased_at" is null and "purchases"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_unerased_home_created_at_idx" ON "purchases" USING btree ("created_at") WHERE "purchases"."erased_at" is null and "purchases"."event_id" is null;--> statement-breakpoint
-- hand-written below
-- The mailbox an address delivers to (ADR 0032), as src/server/limits mailboxOf reads it: letter
-- case and a +tag do not make another mailbox. Staff erase and export one buyer by it.
CREATE FUNCTION "buyer_mailbox"(address text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ select regexp_replace(lower(btrim(address)), '^([^+@]+)\+[^@]*@', '\1@') $$;--> statement-breakpoint
CREATE INDEX "purchases_buyer_mailbox_idx" ON "purchases" USING btree (buyer_mailbox("email")) WHERE "erased_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_buyer_mailbox_idx" ON "outbox" USING btree (buyer_mailbox("recipient")) WHERE "erased_at" is null;--> statement-breakpoint
CREATE INDEX "contact_requests_buyer_mailbox_idx" ON "contact_requests" USING btree (buyer_mailbox("email")) WHERE "erased_at" is null;
