CREATE INDEX "check_ins_checked_in_at_event_id_idx" ON "check_ins" USING btree ("checked_in_at","event_id");--> statement-breakpoint
CREATE INDEX "purchases_lower_email_created_at_idx" ON "purchases" USING btree (lower("email"),"created_at");--> statement-breakpoint
CREATE INDEX "purchases_created_at_amount_idx" ON "purchases" USING btree ("created_at","amount");