ALTER TABLE "events" ADD COLUMN "capacity" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "taken" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sales_open_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "sales_close_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "title_key" varchar(400) NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "event_id" bigint;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_title_key_starts_at_idx" ON "events" USING btree ("title_key","starts_at");--> statement-breakpoint
CREATE INDEX "idempotency_keys_lapsed_holds_idx" ON "idempotency_keys" USING btree ("locked_until") WHERE "idempotency_keys"."response_status" is null and "idempotency_keys"."event_id" is not null;--> statement-breakpoint
CREATE INDEX "purchases_event_id_idx" ON "purchases" USING btree ("event_id") WHERE "purchases"."event_id" is not null;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_capacity_positive" CHECK ("events"."capacity" is null or "events"."capacity" > 0);--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_not_oversold" CHECK ("events"."taken" >= 0 and ("events"."capacity" is null or "events"."taken" <= "events"."capacity"));--> statement-breakpoint
-- The purchase gate (ADR 0027): everything a purchase needs before its payment, for a batch of
-- concurrent buyers in one statement and one commit. In arrival order each request is counted
-- against its rate limits, claims its key and takes a place of its event. Rows are locked in one
-- order (rate_limits by key, idempotency_keys by key, events by id) so two gates never deadlock.
-- requests: [{i, key, fingerprint, event_id | null, title_key | null, hits: [{key, points, window_ms}]}]
CREATE FUNCTION "purchase_gate"(requests jsonb, lease_seconds int, time_zone text)
RETURNS TABLE (i int, verdict text, refused_hit int, ms_left bigint, response jsonb, event jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  req jsonb;
  results jsonb := '{}';
  claimed text[] := '{}';
  refused text[] := '{}';
  ev record;
  wanted jsonb;
  taken_now jsonb := '{}';
  state text;
  eid bigint;
  held bigint;
BEGIN
  -- 1. Rate limits: every key once with its number of hits; each request gets its own place in
  --    the count, in arrival order, and is refused by the first of its limits it goes past.
  WITH hits AS (
    SELECT (r->>'i')::int AS ri, h.ord::int AS hit, h.value->>'key' AS key, (h.value->>'points')::int AS max_points,
           (h.value->>'window_ms')::bigint AS window_ms,
           row_number() OVER (PARTITION BY h.value->>'key' ORDER BY (r->>'i')::int) AS place
    FROM jsonb_array_elements(requests) r, jsonb_array_elements(r->'hits') WITH ORDINALITY h(value, ord)
  ), totals AS (
    SELECT key, count(*)::int AS n, max(window_ms) AS window_ms FROM hits GROUP BY key
  ), counted AS (
    INSERT INTO rate_limits AS t (key, points, expire)
    SELECT key, n, now_ms + window_ms FROM totals ORDER BY key
    ON CONFLICT (key) DO UPDATE SET
      points = CASE WHEN coalesce(t.expire, 0) <= now_ms THEN excluded.points ELSE t.points + excluded.points END,
      expire = CASE WHEN coalesce(t.expire, 0) <= now_ms THEN excluded.expire ELSE t.expire END
    RETURNING t.key, t.points, t.expire - now_ms AS left_ms
  ), past AS (
    SELECT DISTINCT ON (hits.ri) hits.ri, hits.hit, counted.left_ms
    FROM hits JOIN counted USING (key) JOIN totals USING (key)
    WHERE counted.points - totals.n + hits.place > hits.max_points
    ORDER BY hits.ri, hits.hit
  )
  SELECT coalesce(jsonb_object_agg(ri::text, jsonb_build_object('verdict', 'limited', 'refused_hit', hit, 'ms_left', greatest(left_ms, 0))), '{}')
  INTO results FROM past;

  -- 2. Keys, in key order: a new key, an expired one, or an unfinished claim of the same body whose
  --    lease lapsed (its process died; a place it held stays with it) is claimed.
  FOR req IN
    SELECT r FROM jsonb_array_elements(requests) r WHERE NOT results ? (r->>'i') ORDER BY r->>'key'
  LOOP
    INSERT INTO idempotency_keys AS k (key, fingerprint, locked_until, expires_at)
    VALUES (req->>'key', req->>'fingerprint', now() + make_interval(secs => lease_seconds), now() + interval '24 hours')
    ON CONFLICT (key) DO UPDATE SET
      fingerprint = excluded.fingerprint, response_status = null, response_body = null,
      locked_until = excluded.locked_until, created_at = now(), expires_at = excluded.expires_at,
      event_id = CASE WHEN k.expires_at < now() THEN null ELSE k.event_id END
    WHERE k.expires_at < now()
       OR (k.response_status IS NULL AND k.locked_until < now() AND k.fingerprint = excluded.fingerprint)
    RETURNING k.event_id INTO held;
    IF FOUND THEN
      claimed := claimed || (req->>'i');
      IF held IS NOT NULL THEN
        results := results || jsonb_build_object(req->>'i', jsonb_build_object('verdict', 'claimed', 'event_id', held, 'held', true));
      END IF;
    ELSE
      SELECT jsonb_build_object('verdict', CASE
               WHEN k.fingerprint <> req->>'fingerprint' THEN 'mismatch'
               WHEN k.response_status IS NULL THEN 'in_progress'
               ELSE 'replay' END,
             'response', k.response_body)
        INTO wanted FROM idempotency_keys k WHERE k.key = req->>'key';
      -- Gone in between (released by its request): the client's retry will find it free.
      results := results || jsonb_build_object(req->>'i', coalesce(wanted, '{"verdict": "in_progress"}'));
    END IF;
  END LOOP;

  -- 3. Places, events locked in id order. A request names its event (the event page) or a title
  --    key (the home flow: the soonest event of that title whose sales have not closed, or one
  --    closed within a day; none: a home pass for any event, with no place).
  FOR ev IN
    WITH wants AS (
      SELECT r->>'i' AS ri,
             coalesce((r->>'event_id')::bigint,
                      (SELECT e.id FROM events e WHERE r->>'title_key' IS NOT NULL AND e.title_key = r->>'title_key'
                         AND coalesce(e.sales_close_at, e.starts_at) > now() - interval '1 day'
                       ORDER BY coalesce(e.sales_close_at, e.starts_at) <= now(), e.starts_at, e.id LIMIT 1)) AS event_id,
             r->>'event_id' IS NOT NULL AS named
      FROM jsonb_array_elements(requests) r
      WHERE (r->>'i') = ANY (claimed) AND NOT coalesce((results->(r->>'i')->>'held')::boolean, false)
    ), locked AS (
      SELECT e.* FROM events e WHERE e.id IN (SELECT w.event_id FROM wants w) ORDER BY e.id FOR UPDATE
    )
    SELECT w.ri, w.named, w.event_id AS wanted_id, l.id, l.capacity, l.taken,
           CASE WHEN l.id IS NULL THEN null
                WHEN now() >= coalesce(l.sales_close_at, l.starts_at) THEN 'sales_closed'
                WHEN l.sales_open_at IS NOT NULL AND now() < l.sales_open_at THEN 'sales_not_open'
                ELSE 'open' END AS sales
    FROM wants w LEFT JOIN locked l ON l.id = w.event_id
    ORDER BY (w.ri)::int
  LOOP
    IF ev.wanted_id IS NULL THEN
      CONTINUE; -- a home pass for any event
    ELSIF ev.id IS NULL THEN
      state := 'not_found';
    ELSIF ev.sales <> 'open' THEN
      state := ev.sales;
    ELSIF ev.capacity IS NOT NULL AND ev.taken + coalesce((taken_now->>(ev.id::text))::int, 0) >= ev.capacity THEN
      state := 'sold_out';
    ELSE
      taken_now := taken_now || jsonb_build_object(ev.id::text, coalesce((taken_now->>(ev.id::text))::int, 0) + 1);
      results := results || jsonb_build_object(ev.ri, jsonb_build_object('verdict', 'claimed', 'event_id', ev.id));
      CONTINUE;
    END IF;
    results := results || jsonb_build_object(ev.ri, jsonb_build_object('verdict', state));
    refused := refused || ev.ri;
  END LOOP;

  UPDATE events e SET taken = e.taken + (t.value)::int FROM jsonb_each_text(taken_now) t WHERE e.id = (t.key)::bigint;
  UPDATE idempotency_keys k SET event_id = (results->r.ri->>'event_id')::bigint
    FROM (SELECT r->>'i' AS ri, r->>'key' AS key FROM jsonb_array_elements(requests) r) r
    WHERE k.key = r.key AND r.ri = ANY (claimed) AND NOT (r.ri = ANY (refused))
      AND results->r.ri->>'event_id' IS NOT NULL AND k.event_id IS NULL;
  -- A refused request's claim goes: no purchase follows it, and its key may be used again.
  DELETE FROM idempotency_keys k USING jsonb_array_elements(requests) r
    WHERE (r->>'i') = ANY (refused) AND k.key = r->>'key' AND k.response_status IS NULL;

  RETURN QUERY
    SELECT (r->>'i')::int,
           coalesce(res->>'verdict', 'claimed'),
           (res->>'refused_hit')::int,
           (res->>'ms_left')::bigint,
           res->'response',
           CASE WHEN res->>'event_id' IS NULL THEN null ELSE (
             SELECT jsonb_build_object('id', e.id, 'title', e.title, 'priceCents', e.price_cents,
                      'date', to_char(e.starts_at AT TIME ZONE time_zone, 'YYYY-MM-DD'),
                      'time', to_char(e.starts_at AT TIME ZONE time_zone, 'HH24:MI'), 'location', e.location)
             FROM events e WHERE e.id = (res->>'event_id')::bigint) END
    FROM jsonb_array_elements(requests) r
    LEFT JOIN LATERAL (SELECT results->(r->>'i') AS res) x ON true;
END
$$;
