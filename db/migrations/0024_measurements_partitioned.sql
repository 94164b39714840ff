-- 0024: measurements partitioned by UTC month (decision 217). Converts a populated table: the rows are
-- copied into the partitioned table (disk: a second copy of the table while this runs; the old one is
-- dropped at the end), every id and value kept, the id sequence carried over.
CREATE TABLE "measurement_job_keys" (
	"job_key" text PRIMARY KEY NOT NULL,
	"measured_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "measurement_job_keys_time_idx" ON "measurement_job_keys" USING btree ("measured_at");
--> statement-breakpoint
ALTER TABLE "measurements" RENAME TO "measurements_unpartitioned";
--> statement-breakpoint
ALTER TABLE "measurements_unpartitioned" RENAME CONSTRAINT "measurements_pkey" TO "measurements_unpartitioned_pkey";
--> statement-breakpoint
ALTER TABLE "measurements_unpartitioned" RENAME CONSTRAINT "measurements_job_key_unique" TO "measurements_unpartitioned_job_key_unique";
--> statement-breakpoint
ALTER INDEX "measurements_endpoint_time_idx" RENAME TO "measurements_unpartitioned_endpoint_time_idx";
--> statement-breakpoint
ALTER INDEX "measurements_workload_time_idx" RENAME TO "measurements_unpartitioned_workload_time_idx";
--> statement-breakpoint
ALTER INDEX "measurements_fidelity_idx" RENAME TO "measurements_unpartitioned_fidelity_idx";
--> statement-breakpoint
-- Same columns in the same order, defaults (the id sequence) and CHECK constraints (migrations 0012, 0023).
CREATE TABLE "measurements" (LIKE "measurements_unpartitioned" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION) PARTITION BY RANGE ("measured_at");
--> statement-breakpoint
ALTER SEQUENCE "measurements_id_seq" OWNED BY "measurements"."id";
--> statement-breakpoint
CREATE TABLE "measurements_default" PARTITION OF "measurements" DEFAULT;
--> statement-breakpoint
-- Creates the partition of the UTC month holding `month_at` unless it exists; true when created.
-- Rows of that month already in measurements_default (a late or far-future row) are moved into it,
-- so creating a month never fails. Serialised by an advisory lock (two jobs may run at once).
CREATE FUNCTION "measurements_ensure_partition"(month_at timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
	month_utc timestamp := date_trunc('month', month_at AT TIME ZONE 'UTC');
	lo timestamptz := month_utc AT TIME ZONE 'UTC';
	hi timestamptz := (month_utc + interval '1 month') AT TIME ZONE 'UTC';
	lo_text text := to_char(month_utc, 'YYYY-MM-DD HH24:MI:SS') || '+00';
	hi_text text := to_char(month_utc + interval '1 month', 'YYYY-MM-DD HH24:MI:SS') || '+00';
	part text := 'measurements_p' || to_char(month_utc, 'YYYYMM');
BEGIN
	PERFORM pg_advisory_xact_lock(7346217);
	IF to_regclass(format('%I', part)) IS NOT NULL THEN
		RETURN false;
	END IF;
	IF EXISTS (SELECT 1 FROM measurements_default WHERE measured_at >= lo AND measured_at < hi) THEN
		EXECUTE format('CREATE TABLE %I (LIKE measurements INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE INCLUDING COMPRESSION)', part);
		EXECUTE format('WITH moved AS (DELETE FROM measurements_default WHERE measured_at >= $1 AND measured_at < $2 RETURNING *) INSERT INTO %I SELECT * FROM moved', part) USING lo, hi;
		EXECUTE format('ALTER TABLE measurements ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo_text, hi_text);
	ELSE
		EXECUTE format('CREATE TABLE %I PARTITION OF measurements FOR VALUES FROM (%L) TO (%L)', part, lo_text, hi_text);
	END IF;
	RETURN true;
END $$;
--> statement-breakpoint
-- A partition for every month that holds a row, up to three months ahead (a row further ahead goes
-- to measurements_default), and for the current month and the next three. Months are UTC timestamps,
-- so the session's time zone cannot shift one into its neighbour.
SELECT "measurements_ensure_partition"(m AT TIME ZONE 'UTC') FROM (
	SELECT DISTINCT date_trunc('month', measured_at AT TIME ZONE 'UTC') AS m FROM measurements_unpartitioned
	WHERE measured_at < now() + interval '3 months'
	UNION
	SELECT generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'), (now() + interval '3 months') AT TIME ZONE 'UTC', interval '1 month')
	ORDER BY m
) AS months;
--> statement-breakpoint
INSERT INTO "measurements" SELECT * FROM "measurements_unpartitioned";
--> statement-breakpoint
INSERT INTO "measurement_job_keys" ("job_key", "measured_at") SELECT "job_key", "measured_at" FROM "measurements_unpartitioned";
--> statement-breakpoint
DROP TABLE "measurements_unpartitioned";
--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_pkey" PRIMARY KEY("id","measured_at");
--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_endpoint_id_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."endpoints"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_workload_id_workloads_id_fk" FOREIGN KEY ("workload_id") REFERENCES "public"."workloads"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "measurements" ADD CONSTRAINT "measurements_disclosure_revision_id_disclosure_revisions_id_fk" FOREIGN KEY ("disclosure_revision_id") REFERENCES "public"."disclosure_revisions"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "measurements_endpoint_time_idx" ON "measurements" USING btree ("endpoint_id","measured_at");
--> statement-breakpoint
CREATE INDEX "measurements_workload_time_idx" ON "measurements" USING btree ("workload_id","measured_at");
--> statement-breakpoint
CREATE INDEX "measurements_fidelity_idx" ON "measurements" USING btree ("endpoint_id","workload_id","measured_at") WHERE fidelity_check IS NOT NULL;
--> statement-breakpoint
-- job_key stays unique across all partitions: each inserted row first claims its key in
-- measurement_job_keys; a key already there is refused with the error the old unique constraint gave.
CREATE FUNCTION "measurements_claim_job_key"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO measurement_job_keys (job_key, measured_at) VALUES (NEW.job_key, NEW.measured_at) ON CONFLICT (job_key) DO NOTHING;
	IF NOT FOUND THEN
		RAISE unique_violation USING
			MESSAGE = 'duplicate key value violates unique constraint "measurements_job_key_unique"',
			DETAIL = format('Key (job_key)=(%s) already exists.', NEW.job_key),
			CONSTRAINT = 'measurements_job_key_unique',
			TABLE = 'measurements';
	END IF;
	RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER "measurements_claim_job_key" BEFORE INSERT ON "measurements" FOR EACH ROW EXECUTE FUNCTION "measurements_claim_job_key"();
--> statement-breakpoint
-- A measurement deleted (through measurements) frees its job key, so a re-seeded or re-run job can
-- write again. Not fired by DROP of a partition (retention deletes that month's keys itself) nor by
-- the move out of measurements_default in measurements_ensure_partition (the rows live on).
CREATE FUNCTION "measurements_release_job_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM measurement_job_keys k USING gone g WHERE k.job_key = g.job_key;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "measurements_release_job_keys" AFTER DELETE ON "measurements" REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION "measurements_release_job_keys"();
