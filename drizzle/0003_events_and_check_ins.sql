CREATE TABLE "check_ins" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "check_ins_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" varchar(10) NOT NULL,
	"event_id" bigint NOT NULL,
	"staff_user_id" text,
	"checked_in_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" varchar(100) NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"location" varchar(200) NOT NULL,
	"price_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_price_not_negative" CHECK ("events"."price_cents" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "event_id" bigint;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_order_id_purchases_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."purchases"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_staff_user_id_auth_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_ins_order_id_event_id_key" ON "check_ins" USING btree ("order_id","event_id");--> statement-breakpoint
CREATE INDEX "check_ins_event_id_checked_in_at_idx" ON "check_ins" USING btree ("event_id","checked_in_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_starts_at_idx" ON "events" USING btree ("starts_at");--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;