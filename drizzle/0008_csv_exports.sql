CREATE TABLE "csv_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"rows" bigint,
	"file_name" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "csv_exports_status_known" CHECK ("csv_exports"."status" in ('running', 'complete', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "csv_exports" ADD CONSTRAINT "csv_exports_user_id_auth_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "csv_exports_started_at_idx" ON "csv_exports" USING btree ("started_at");