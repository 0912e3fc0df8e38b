ALTER TABLE "check_in_conflicts" ADD COLUMN "kind" varchar(20) DEFAULT 'double_admission' NOT NULL;--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "uploaded_by" text;--> statement-breakpoint
ALTER TABLE "door_devices" ADD COLUMN "owner_user_id" text;--> statement-breakpoint
ALTER TABLE "door_devices" ADD COLUMN "pack_key" text;--> statement-breakpoint
ALTER TABLE "door_devices" ADD COLUMN "first_pack_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "door_devices" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "door_devices" ADD COLUMN "revoked_by" text;--> statement-breakpoint
ALTER TABLE "check_ins" ADD CONSTRAINT "check_ins_uploaded_by_auth_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_devices" ADD CONSTRAINT "door_devices_owner_user_id_auth_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_devices" ADD CONSTRAINT "door_devices_revoked_by_auth_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_conflicts" ADD CONSTRAINT "check_in_conflicts_kind_known" CHECK ("check_in_conflicts"."kind" in ('double_admission', 'voided'));