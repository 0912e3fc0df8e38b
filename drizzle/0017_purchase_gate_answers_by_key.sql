-- The purchase gate (ADR 0027, 0033) as migration 0016 defined it, but for its answer (ADR 0035): a
-- request that did not win its key reads that key's row, and a claimed one its event, each through
-- its index. As a join, the planner read every key of the last 24 hours (and every event) in each
-- gate statement: a cost that grew with each pass sold, while gate statements run one at a time.
CREATE OR REPLACE FUNCTION "purchase_gate"(requests jsonb, lease_seconds int, time_zone text)
RETURNS TABLE (i int, verdict text, refused_hit int, ms_left bigint, response jsonb, event jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  now_ms bigint := (extract(epoch from now()) * 1000)::bigint;
  limited_i int[];
  limited_hit int[];
  limited_ms bigint[];
  claimed_i int[];
  held_event bigint[];
  preset_i int[];
  placed_i int[];
  placed_event bigint[];
  placed_state text[];
BEGIN
  -- Each step runs only when its batch has something for it: a batch of home passes (no key, no
  -- event) costs the limits and the title lookup, nothing else.
  limited_i := '{}'; limited_hit := '{}'; limited_ms := '{}';
  claimed_i := '{}'; held_event := '{}'; preset_i := '{}';
  placed_i := '{}'; placed_event := '{}'; placed_state := '{}';

  -- 1. Rate limits: every key once with its number of hits; each request gets its own place in
  --    the count, in arrival order, and is refused by the first of its limits it goes past.
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(requests) r WHERE jsonb_array_length(r->'hits') > 0) THEN
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
  SELECT coalesce(array_agg(ri), '{}'), coalesce(array_agg(hit), '{}'), coalesce(array_agg(greatest(left_ms, 0)), '{}')
  INTO limited_i, limited_hit, limited_ms FROM past;
  END IF;

  -- 2. Client keys, in key order: a new key, an expired one, or an unfinished claim of the same
  --    body whose lease lapsed (its process died; a place it held stays with it) is claimed. A
  --    request without a key (the server drew one, starting with a space) needs a claim only to
  --    hold a place: step 3 writes it if it takes one.
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(requests) r WHERE left(r->>'key', 1) <> ' ') THEN
  --    A new key of the event page's purchase is written with its event at once: step 3 takes the
  --    place (or deletes the claim), so the row is written once, not twice.
  WITH won AS (
    INSERT INTO idempotency_keys AS k (key, fingerprint, locked_until, expires_at, event_id)
    SELECT r->>'key', r->>'fingerprint', now() + make_interval(secs => lease_seconds), now() + interval '24 hours',
           (SELECT e.id FROM events e WHERE e.id = (r->>'event_id')::bigint)
    FROM jsonb_array_elements(requests) r
    WHERE NOT (r->>'i')::int = ANY (limited_i) AND left(r->>'key', 1) <> ' '
    ORDER BY r->>'key'
    ON CONFLICT (key) DO UPDATE SET
      fingerprint = excluded.fingerprint, response_status = null, response_body = null,
      locked_until = excluded.locked_until, created_at = now(), expires_at = excluded.expires_at,
      event_id = CASE WHEN k.expires_at < now() THEN null ELSE k.event_id END
    WHERE k.expires_at < now()
       OR (k.response_status IS NULL AND k.locked_until < now() AND k.fingerprint = excluded.fingerprint)
    RETURNING k.key, k.event_id, k.xmax = 0 AS fresh
  )
  -- A fresh row's event is the one it asks for, not a place it holds.
  SELECT coalesce(array_agg((r->>'i')::int), '{}'),
         coalesce(array_agg(CASE WHEN won.fresh THEN null ELSE won.event_id END), '{}'),
         coalesce(array_agg((r->>'i')::int) FILTER (WHERE won.fresh AND won.event_id IS NOT NULL), '{}')
  INTO claimed_i, held_event, preset_i
  FROM won JOIN jsonb_array_elements(requests) r ON r->>'key' = won.key;
  END IF;

  -- 3. Places, events locked in id order. A request names its event (the event page) or a title
  --    key (the home flow: the soonest event of that title whose sales have not closed, or one
  --    closed within a day; none: a home pass for any event, with no place). Each event's places
  --    go in arrival order.
  WITH wants AS (
    SELECT (r->>'i')::int AS ri,
           coalesce((r->>'event_id')::bigint,
                    (SELECT e.id FROM events e WHERE r->>'title_key' IS NOT NULL AND e.title_key = r->>'title_key'
                       AND coalesce(e.sales_close_at, e.starts_at) > now() - interval '1 day'
                     ORDER BY coalesce(e.sales_close_at, e.starts_at) <= now(), e.starts_at, e.id LIMIT 1)) AS event_id
    FROM jsonb_array_elements(requests) r
    LEFT JOIN unnest(claimed_i, held_event) AS c(ci, held) ON c.ci = (r->>'i')::int
    WHERE NOT (r->>'i')::int = ANY (limited_i)
      AND CASE WHEN left(r->>'key', 1) = ' ' THEN true ELSE c.ci IS NOT NULL AND c.held IS NULL END
  ), locked AS (
    SELECT e.id, e.capacity, e.taken,
           -- Sold out or not is the ranking's to say below, batch included.
           CASE event_sales(e) WHEN 'closed' THEN 'sales_closed' WHEN 'not_yet' THEN 'sales_not_open' ELSE 'open' END AS sales
    FROM events e WHERE e.id IN (SELECT w.event_id FROM wants w) ORDER BY e.id FOR NO KEY UPDATE
  ), ranked AS (
    SELECT w.ri, w.event_id, l.id AS found_id, l.capacity, l.taken, l.sales,
           row_number() OVER (PARTITION BY w.event_id, l.sales = 'open' ORDER BY w.ri) AS place
    FROM wants w LEFT JOIN locked l ON l.id = w.event_id
    WHERE w.event_id IS NOT NULL
  )
  SELECT coalesce(array_agg(ri), '{}'), coalesce(array_agg(event_id), '{}'),
         coalesce(array_agg(CASE WHEN found_id IS NULL THEN 'not_found'
                                 WHEN sales <> 'open' THEN sales
                                 WHEN capacity IS NOT NULL AND taken + place > capacity THEN 'sold_out'
                                 ELSE 'claimed' END), '{}')
  INTO placed_i, placed_event, placed_state FROM ranked;

  IF cardinality(placed_i) > 0 THEN
  UPDATE events e SET taken = e.taken + g.n
  FROM (SELECT p.ev, count(*)::int AS n FROM unnest(placed_event, placed_state) AS p(ev, st) WHERE p.st = 'claimed' GROUP BY p.ev) g
  WHERE e.id = g.ev;
  -- The claims of the places taken that do not name their event yet: a server-drawn key's new row,
  -- or a client key's row claimed above for a title or again after its lease lapsed; in key order.
  IF EXISTS (SELECT 1 FROM unnest(placed_i, placed_state) AS p(pi, st) WHERE p.st = 'claimed' AND NOT p.pi = ANY (preset_i)) THEN
  INSERT INTO idempotency_keys AS k (key, fingerprint, locked_until, expires_at, event_id)
  SELECT r->>'key', r->>'fingerprint', now() + make_interval(secs => lease_seconds), now() + interval '24 hours', p.ev
  FROM unnest(placed_i, placed_event, placed_state) AS p(pi, ev, st) JOIN jsonb_array_elements(requests) r ON (r->>'i')::int = p.pi
  WHERE p.st = 'claimed' AND NOT p.pi = ANY (preset_i)
  ORDER BY r->>'key'
  ON CONFLICT (key) DO UPDATE SET event_id = excluded.event_id;
  END IF;
  -- A refused request's claim goes: no purchase follows it, and its key may be used again.
  DELETE FROM idempotency_keys k
  USING unnest(placed_i, placed_state) AS p(pi, st), jsonb_array_elements(requests) r
  WHERE p.st <> 'claimed' AND (r->>'i')::int = p.pi AND k.key = r->>'key' AND k.response_status IS NULL;
  END IF;

  RETURN QUERY
    WITH answer AS (
      SELECT (r->>'i')::int AS ri, r->>'key' AS key, r->>'fingerprint' AS fingerprint,
             l.hit, l.ms, c.ci IS NOT NULL OR (left(r->>'key', 1) = ' ' AND l.hit IS NULL) AS won, c.held, p.ev, p.st
      FROM jsonb_array_elements(requests) r
      LEFT JOIN unnest(limited_i, limited_hit, limited_ms) AS l(li, hit, ms) ON l.li = (r->>'i')::int
      LEFT JOIN unnest(claimed_i, held_event) AS c(ci, held) ON c.ci = (r->>'i')::int
      LEFT JOIN unnest(placed_i, placed_event, placed_state) AS p(pi, ev, st) ON p.pi = (r->>'i')::int
    )
    SELECT a.ri,
           CASE WHEN a.hit IS NOT NULL THEN 'limited'
                WHEN a.won THEN coalesce(a.st, 'claimed')
                -- Not claimed: the key's row says why (gone in between: a retry will find it free).
                WHEN k.key IS NULL OR k.response_status IS NULL AND k.fingerprint = a.fingerprint THEN 'in_progress'
                WHEN k.fingerprint <> a.fingerprint THEN 'mismatch'
                ELSE 'replay' END,
           a.hit, a.ms,
           CASE WHEN a.hit IS NULL AND NOT a.won AND k.fingerprint = a.fingerprint THEN k.response_body END,
           CASE WHEN coalesce(a.held, CASE WHEN a.st = 'claimed' THEN a.ev END) IS NULL THEN null ELSE
             jsonb_build_object('id', e.id, 'title', e.title, 'priceCents', e.price_cents,
               'date', to_char(e.starts_at AT TIME ZONE time_zone, 'YYYY-MM-DD'),
               'time', to_char(e.starts_at AT TIME ZONE time_zone, 'HH24:MI'), 'location', e.location) END
    FROM answer a
    -- One index probe per request that needs its key's row or its event (LIMIT keeps each lookup
    -- apart, so the planner cannot turn it into a join that reads the whole table).
    LEFT JOIN LATERAL (
      SELECT k.key, k.fingerprint, k.response_status, k.response_body FROM idempotency_keys k
      WHERE NOT a.won AND a.hit IS NULL AND k.key = a.key LIMIT 1
    ) k ON true
    LEFT JOIN LATERAL (
      SELECT e.id, e.title, e.price_cents, e.starts_at, e.location FROM events e
      WHERE e.id = coalesce(a.held, CASE WHEN a.st = 'claimed' THEN a.ev END) LIMIT 1
    ) e ON true;
END
$$;
