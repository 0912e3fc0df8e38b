CREATE TABLE "quarantined_purchases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "quarantined_purchases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" text NOT NULL,
	"reason" text NOT NULL,
	"record" text NOT NULL,
	"quarantined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
ALTER TABLE "contact_requests" ALTER COLUMN "name" SET DATA TYPE varchar(400);--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "title" SET DATA TYPE varchar(400);--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "location" SET DATA TYPE varchar(800);--> statement-breakpoint
ALTER TABLE "purchases" ALTER COLUMN "name" SET DATA TYPE varchar(400);--> statement-breakpoint
ALTER TABLE "purchases" ALTER COLUMN "event_name" SET DATA TYPE varchar(400);--> statement-breakpoint
CREATE UNIQUE INDEX "quarantined_purchases_order_id_key" ON "quarantined_purchases" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "quarantined_purchases_at_idx" ON "quarantined_purchases" USING btree ("quarantined_at","id");--> statement-breakpoint
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits" USING btree ("expire");