CREATE TABLE "purchase_totals" (
	"event_type" text NOT NULL,
	"shard" smallint NOT NULL,
	"purchases" bigint NOT NULL,
	"revenue_cents" bigint NOT NULL,
	CONSTRAINT "purchase_totals_event_type_shard_pk" PRIMARY KEY("event_type","shard")
);
--> statement-breakpoint
DROP INDEX "outbox_created_at_idx";--> statement-breakpoint
DROP INDEX "check_ins_event_id_checked_in_at_idx";--> statement-breakpoint
DROP INDEX "purchases_created_at_id_idx";--> statement-breakpoint
CREATE INDEX "outbox_created_at_id_idx" ON "outbox" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "check_ins_event_id_checked_in_at_idx" ON "check_ins" USING btree ("event_id","checked_in_at");--> statement-breakpoint
CREATE INDEX "purchases_created_at_id_idx" ON "purchases" USING btree ("created_at","id");--> statement-breakpoint
-- Hand-written below: the running totals behind the stat cards (schema.ts, purchase_totals).
-- Statement-level triggers see a whole group-commit batch at once, so a batch of 200 purchases
-- costs one upsert, not 200. Rows are upserted in event_type order so two transactions that share
-- a shard lock them in the same order and cannot deadlock.
CREATE FUNCTION "purchase_totals_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO purchase_totals AS t (event_type, shard, purchases, revenue_cents)
    SELECT event_type, pg_backend_pid() % 16, -count(*), -sum(amount) FROM old_rows GROUP BY event_type ORDER BY event_type
    ON CONFLICT (event_type, shard) DO UPDATE
      SET purchases = t.purchases + excluded.purchases, revenue_cents = t.revenue_cents + excluded.revenue_cents;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO purchase_totals AS t (event_type, shard, purchases, revenue_cents)
    SELECT event_type, pg_backend_pid() % 16, count(*), sum(amount) FROM new_rows GROUP BY event_type ORDER BY event_type
    ON CONFLICT (event_type, shard) DO UPDATE
      SET purchases = t.purchases + excluded.purchases, revenue_cents = t.revenue_cents + excluded.revenue_cents;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "purchase_totals_clear"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM purchase_totals;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "purchases_totals_insert" AFTER INSERT ON "purchases"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "purchases_totals_update" AFTER UPDATE ON "purchases"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "purchases_totals_delete" AFTER DELETE ON "purchases"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION purchase_totals_apply();
--> statement-breakpoint
CREATE TRIGGER "purchases_totals_truncate" AFTER TRUNCATE ON "purchases"
  FOR EACH STATEMENT EXECUTE FUNCTION purchase_totals_clear();
--> statement-breakpoint
-- Purchases stored before this migration: counted once, with inserts held off until it commits.
LOCK TABLE "purchases" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO purchase_totals (event_type, shard, purchases, revenue_cents)
SELECT event_type, 0, count(*), sum(amount) FROM purchases GROUP BY event_type;
