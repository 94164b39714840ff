CREATE TABLE "dump_chunks" (
	"dump_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dumps" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"until_at" timestamp with time zone NOT NULL,
	"rows" integer NOT NULL,
	"bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"manifest" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dump_chunks" ADD CONSTRAINT "dump_chunks_dump_id_dumps_id_fk" FOREIGN KEY ("dump_id") REFERENCES "public"."dumps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dump_chunks_pk_idx" ON "dump_chunks" USING btree ("dump_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "dumps_period_idx" ON "dumps" USING btree ("from_at","until_at");