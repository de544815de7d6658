/**
 * The request counters' part of the PostgreSQL schema (postgres-migrations.ts applies it, as
 * migrations 2 and 5): the table of counts and the functions that take from it, which
 * postgres-counters.ts calls. Shipped migrations are never edited: a change is a new function.
 */

/** Migration 2: the counts, and taking one request at a time. */
export const COUNTS_SQL = `
    -- One row per budget and window (limits/budgets.ts), named by the budget's id; an hourly row is
    -- also the key's usage of that hour, server calls and embed traffic apart: requests counted (used)
    -- and refused, by reason — the limit, or auth: an origin, an IP, the key disabled — added in
    -- batches, never a write per refusal. Half-filled pages keep a hot row's updates HOT.
    CREATE TABLE request_counts (
      id text PRIMARY KEY,
      key_id text NOT NULL,
      kind text NOT NULL,
      used bigint NOT NULL,
      refused_limit bigint NOT NULL DEFAULT 0,
      refused_origin bigint NOT NULL DEFAULT 0,
      refused_ip bigint NOT NULL DEFAULT 0,
      refused_inactive bigint NOT NULL DEFAULT 0,
      first_refused_at bigint,
      resets_at bigint NOT NULL
    ) WITH (fillfactor = 50);
    CREATE INDEX request_counts_key ON request_counts (key_id, resets_at);
    CREATE INDEX request_counts_resets ON request_counts (resets_at);

    -- Counts one request against every budget, or against none when one is used up, in one round
    -- trip: the budgets' rows are locked in id order, so that two requests drawing on the same rows
    -- never wait on each other crosswise. Answers the first used-up budget (0-based; -1: counted), the
    -- counts after this request (as they were when refused), and whether this refusal is the budget's
    -- first in its window: set once, under the row's lock, so one process in the fleet logs it.
    CREATE FUNCTION loc_take_v1(ids text[], key_ids text[], kinds text[], limits bigint[], resets bigint[], now_ms bigint,
                                OUT spent integer, OUT counts bigint[], OUT first_refusal boolean)
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO request_counts (id, key_id, kind, used, resets_at)
        SELECT b.id, b.key_id, b.kind, 0, b.resets FROM unnest(ids, key_ids, kinds, resets) AS b(id, key_id, kind, resets) ORDER BY b.id
        ON CONFLICT (id) DO NOTHING;
      PERFORM 1 FROM request_counts WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
      SELECT array_agg(r.used ORDER BY b.i) INTO counts FROM unnest(ids) WITH ORDINALITY AS b(id, i) JOIN request_counts r ON r.id = b.id;
      spent := -1;
      first_refusal := false;
      FOR i IN 1 .. cardinality(ids) LOOP
        IF counts[i] >= limits[i] THEN
          spent := i - 1;
          UPDATE request_counts SET first_refused_at = now_ms WHERE id = ids[i] AND first_refused_at IS NULL;
          first_refusal := FOUND;
          RETURN;
        END IF;
      END LOOP;
      UPDATE request_counts SET used = used + 1 WHERE id = ANY (ids);
      SELECT array_agg(c + 1 ORDER BY i) INTO counts FROM unnest(counts) WITH ORDINALITY AS b(c, i);
    END
    $$;
    `;

/** Migration 5: taking several requests of one budget set at once (shared-counters.ts gathers them). */
export const TAKE_MANY_SQL = `
    CREATE FUNCTION loc_take_v2(ids text[], key_ids text[], kinds text[], limits bigint[], resets bigint[], now_ms bigint, wanted integer,
                                OUT granted integer, OUT spent integer, OUT counts bigint[], OUT first_refusal boolean)
    LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO request_counts (id, key_id, kind, used, resets_at)
        SELECT b.id, b.key_id, b.kind, 0, b.resets FROM unnest(ids, key_ids, kinds, resets) AS b(id, key_id, kind, resets) ORDER BY b.id
        ON CONFLICT (id) DO NOTHING;
      PERFORM 1 FROM request_counts WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
      SELECT array_agg(r.used ORDER BY b.i) INTO counts FROM unnest(ids) WITH ORDINALITY AS b(id, i) JOIN request_counts r ON r.id = b.id;
      -- As many as every budget has room for; the first budget with the least room is the one spent.
      granted := wanted;
      spent := -1;
      FOR i IN 1 .. cardinality(ids) LOOP
        IF limits[i] - counts[i] < granted THEN
          granted := greatest(limits[i] - counts[i], 0);
          spent := i - 1;
        END IF;
      END LOOP;
      IF granted > 0 THEN
        UPDATE request_counts SET used = used + granted WHERE id = ANY (ids);
        SELECT array_agg(c + granted ORDER BY i) INTO counts FROM unnest(counts) WITH ORDINALITY AS b(c, i);
      END IF;
      first_refusal := false;
      IF spent >= 0 THEN
        UPDATE request_counts SET first_refused_at = now_ms WHERE id = ids[spent + 1] AND first_refused_at IS NULL;
        first_refusal := FOUND;
      END IF;
    END
    $$;
    `;
