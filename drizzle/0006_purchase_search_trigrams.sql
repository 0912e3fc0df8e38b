-- Staff search ("contains" on name, email or event, case-insensitive) at millions of rows: a
-- trigram index turns a rare term from a scan of every purchase into an index lookup. pg_trgm ships
-- with PostgreSQL (contrib) and PGlite; where a server lacks it, the search still works, by scanning.
-- Not in schema.ts: drizzle-kit cannot express an index that exists only with an extension.
DO $$
BEGIN
  CREATE EXTENSION IF NOT EXISTS pg_trgm;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE 'pg_trgm is not available (%): staff search will scan purchases', SQLERRM;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    CREATE INDEX IF NOT EXISTS purchases_search_trgm_idx ON purchases
      USING gin (name gin_trgm_ops, email gin_trgm_ops, event_name gin_trgm_ops);
  END IF;
END $$;
