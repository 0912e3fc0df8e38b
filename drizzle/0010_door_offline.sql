CREATE TABLE "check_in_conflicts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "check_in_conflicts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" varchar(10) NOT NULL,
	"event_id" bigint NOT NULL,
	"first_device_id" varchar(64),
	"first_at" timestamp with time zone NOT NULL,
	"second_device_id" varchar(64),
	"second_at" timestamp with time zone NOT NULL,
	"scan_nonce" varchar(64) NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" text
);
--> statement-breakpoint
CREATE TABLE "door_devices" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"label" varchar(100) NOT NULL,
	"event_id" bigint,
	"last_sync_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scans_uploaded" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "door_scans" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "door_scans_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"nonce" varchar(64) NOT NULL,
	"device_id" varchar(64) NOT NULL,
	"order_id" varchar(10),
	"event_id" bigint NOT NULL,
	"verdict" varchar(20) NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "device_id" varchar(64);--> statement-breakpoint
ALTER TABLE "check_ins" ADD COLUMN "recorded_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "check_in_conflicts" ADD CONSTRAINT "check_in_conflicts_order_id_purchases_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."purchases"("order_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_conflicts" ADD CONSTRAINT "check_in_conflicts_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "check_in_conflicts" ADD CONSTRAINT "check_in_conflicts_resolved_by_auth_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."auth_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_devices" ADD CONSTRAINT "door_devices_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_device_id_door_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."door_devices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "door_scans" ADD CONSTRAINT "door_scans_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "check_in_conflicts_scan_nonce_key" ON "check_in_conflicts" USING btree ("scan_nonce");--> statement-breakpoint
CREATE INDEX "check_in_conflicts_pending_idx" ON "check_in_conflicts" USING btree ("detected_at") WHERE "check_in_conflicts"."resolved_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "door_scans_nonce_key" ON "door_scans" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "door_scans_device_id_idx" ON "door_scans" USING btree ("device_id");