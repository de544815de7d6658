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

/**
 * Migration 5: taking, in one call, the requests of several budget sets at once (shared-counters.ts
 * gathers them: a set is one key's or one session's budgets). The sets come flattened: `set_of[j]`
 * is budget j's set, 1, 2, … in order, and `wanted[s]` how many requests set s brings. Every row of
 * the call is locked in id order, so two calls never wait on each other crosswise; then the sets
 * are taken in turn, each as many requests as all its budgets have room for, each request all or
 * nothing, a later set seeing what an earlier one took from a row they share (a key's embed budget,
 * which all its sessions draw on). Answers, per set, how many were granted, the first budget (0-based
 * within the set) with the least room when fewer than wanted (-1: none), and whether that refusal is
 * the budget's first in its window; per budget, its count after its set's step.
 */
export const TAKE_MANY_SQL = `
    CREATE FUNCTION loc_take_v2(set_of integer[], ids text[], key_ids text[], kinds text[], limits bigint[], resets bigint[],
                                wanted integer[], now_ms bigint,
                                OUT granted integer[], OUT spent integer[], OUT counts bigint[], OUT first_refusal boolean[])
    LANGUAGE plpgsql AS $$
    DECLARE
      rows_held text[];
      held bigint[];
      room bigint;
      at integer;
      j integer := 1;
      first_j integer;
    BEGIN
      INSERT INTO request_counts (id, key_id, kind, used, resets_at)
        SELECT DISTINCT ON (b.id) b.id, b.key_id, b.kind, 0, b.resets
          FROM unnest(ids, key_ids, kinds, resets) AS b(id, key_id, kind, resets) ORDER BY b.id
        ON CONFLICT (id) DO NOTHING;
      PERFORM 1 FROM request_counts WHERE id = ANY (ids) ORDER BY id FOR UPDATE;
      SELECT array_agg(r.id ORDER BY r.id), array_agg(r.used ORDER BY r.id) INTO rows_held, held FROM request_counts r WHERE r.id = ANY (ids);
      granted := array_fill(0, ARRAY[cardinality(wanted)]);
      spent := array_fill(-1, ARRAY[cardinality(wanted)]);
      first_refusal := array_fill(false, ARRAY[cardinality(wanted)]);
      counts := array_fill(0::bigint, ARRAY[cardinality(ids)]);
      FOR s IN 1 .. cardinality(wanted) LOOP
        first_j := j;
        granted[s] := wanted[s];
        WHILE j <= cardinality(ids) AND set_of[j] = s LOOP
          room := limits[j] - held[array_position(rows_held, ids[j])];
          IF room < granted[s] THEN
            granted[s] := greatest(room, 0);
            spent[s] := j - first_j;
          END IF;
          j := j + 1;
        END LOOP;
        FOR k IN first_j .. j - 1 LOOP
          at := array_position(rows_held, ids[k]);
          held[at] := held[at] + granted[s];
          counts[k] := held[at];
        END LOOP;
        IF spent[s] >= 0 THEN
          UPDATE request_counts SET first_refused_at = now_ms WHERE id = ids[first_j + spent[s]] AND first_refused_at IS NULL;
          first_refusal[s] := FOUND;
        END IF;
      END LOOP;
      UPDATE request_counts SET used = held[array_position(rows_held, id)] WHERE id = ANY (rows_held) AND used <> held[array_position(rows_held, id)];
    END
    $$;
    `;
