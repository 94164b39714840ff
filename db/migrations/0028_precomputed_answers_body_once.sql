-- 0028: a precomputed answer's text is stored once, as the body of its snapshot (decision 314); the
-- answer row keeps its content hash (decision 300) instead of a second copy of the text. Every row's
-- snapshot was written in the same transaction; a row without one (none expected) is dropped, the
-- precompute job writes it again within a minute. Rows keep content_hash null until rewritten (the
-- job then reads the hash from the snapshot's body).
DELETE FROM "precomputed_answers" pa WHERE NOT EXISTS (SELECT 1 FROM "snapshots" s WHERE s."id" = pa."snapshot_id");--> statement-breakpoint
ALTER TABLE "precomputed_answers" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "precomputed_answers" ADD CONSTRAINT "precomputed_answers_snapshot_id_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."snapshots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "precomputed_answers" DROP COLUMN "body";
