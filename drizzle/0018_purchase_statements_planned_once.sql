-- Each purchase statement planned once per connection, not once per call (ADR 0038). Under the
-- throughput bench, pg_stat_statements showed the store (sent as SQL text, an unnamed statement)
-- parsed and planned on every batch, 0.63 ms each, and the gate's answer step re-planned on every
-- call (plpgsql kept custom plans for it), 0.76 ms each: more than that step's own execution.
-- Every input of these statements is one jsonb batch whose row estimates are the same for any
-- batch, so a custom plan never differs from the generic one.
ALTER FUNCTION "purchase_gate"(jsonb, int, text) SET plan_cache_mode = force_generic_plan;
--> statement-breakpoint
-- The store of ADR 0002 (purchases, their outbox rows and their keys' answers in one statement),
-- as a function so its plan is cached; the statement itself is unchanged. Returns the order IDs
-- stored (a taken order_id stores nothing for that purchase).
CREATE FUNCTION "store_purchases"(batch jsonb, mail_kind text) RETURNS SETOF text
LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
BEGIN
  RETURN QUERY
    with input as (
      select * from jsonb_to_recordset(batch) as t(
        name text, email text, event_name text, event_type text, amount int, order_id text,
        created_at timestamptz, event_id bigint, payload jsonb,
        idem_key text, idem_fingerprint text, idem_response jsonb)
    ), inserted as (
      insert into purchases (name, email, event_name, event_type, amount, order_id, created_at, event_id)
      select name, email, event_name, event_type, amount, order_id, created_at, event_id from input
      on conflict (order_id) do nothing
      returning order_id
    ), stored as (
      select input.* from input join inserted using (order_id)
    ), unheld as (
      -- An event's pass whose claim no longer holds its place (spooled past the hold, ADR 0027)
      -- takes one now; past the capacity the events_not_oversold check refuses the statement.
      select s.event_id, count(*)::int as n from stored s
      where s.event_id is not null and not exists (
        select 1 from idempotency_keys k
        where k.key = s.idem_key and k.event_id = s.event_id and k.response_status is null)
      group by s.event_id
    ), took as (
      update events e set taken = e.taken + u.n from unheld u where e.id = u.event_id
    ), queued as (
      insert into outbox (kind, ref, recipient, payload, created_at)
      select mail_kind, order_id, email, payload, created_at from stored
      on conflict (kind, ref) do nothing
    ), remembered as (
      insert into idempotency_keys (key, fingerprint, response_status, response_body, locked_until, expires_at, event_id)
      select idem_key, idem_fingerprint, 201, idem_response, now(), now() + interval '24 hours', event_id
      from stored where idem_key is not null
      on conflict (key) do update set
        fingerprint = excluded.fingerprint,
        response_status = excluded.response_status,
        response_body = excluded.response_body,
        locked_until = excluded.locked_until,
        expires_at = excluded.expires_at,
        event_id = excluded.event_id
      -- A key that already answered keeps its first answer (a spooled purchase sent with a reused
      -- key during an outage is stored, but does not take the key over).
      where idempotency_keys.response_status is null or idempotency_keys.expires_at < now()
    )
    select inserted.order_id::text from inserted;
END
$$;
