CREATE TABLE "pass_voids" (
	"order_id" varchar(10) PRIMARY KEY NOT NULL,
	"reason" varchar(400) NOT NULL,
	"refunded_cents" integer DEFAULT 0 NOT NULL,
	"refund_reference" text,
	"staff_user_id" text,
	"voided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pass_voids_refund_not_negative" CHECK ("pass_voids"."refunded_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "staff_actions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "staff_actions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"actor_user_id" text,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pass_voids" ADD CONSTRAINT "pass_voids_order_id_purchases_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."purchases"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pass_voids" ADD CONSTRAINT "pass_voids_staff_user_id_auth_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_actions" ADD CONSTRAINT "staff_actions_actor_user_id_auth_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pass_voids_voided_at_idx" ON "pass_voids" USING btree ("voided_at");--> statement-breakpoint
CREATE INDEX "staff_actions_at_id_idx" ON "staff_actions" USING btree ("at","id");