ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sales_open_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sales_close_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "title_key" varchar(400) NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "event_id" bigint;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_title_key_starts_at_idx" ON "events" USING btree ("title_key","starts_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_lapsed_holds_idx" ON "idempotency_keys" USING btree ("locked_until") WHERE "idempotency_keys"."response_status" is null and "idempotency_keys"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_event_id_idx" ON "purchases" USING btree ("event_id") WHERE "purchases"."event_id" is not null;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_capacity_positive" CHECK ("events"."capacity" is null or "events"."capacity" > 0);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_not_oversold" CHECK ("events"."taken" >= 0 and ("events"."capacity" is null or "events"."taken" <= "events"."capacity"));