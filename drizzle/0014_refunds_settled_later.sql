ALTER TABLE "pass_voids" ADD COLUMN "refund_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "pass_voids" ADD COLUMN "refund_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pass_voids" ADD COLUMN "settler_claims" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "pass_voids_refund_due_idx" ON "pass_voids" USING btree ("refund_due_at") WHERE "pass_voids"."refund_status" = 'pending';--> statement-breakpoint
ALTER TABLE "pass_voids" ADD CONSTRAINT "pass_voids_refund_status" CHECK ("pass_voids"."refund_status" in ('none', 'pending', 'refunded', 'refused'));