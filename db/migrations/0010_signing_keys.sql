CREATE TABLE "signing_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"public_key_pem" text NOT NULL,
	"private_key_enc" text NOT NULL,
	"valid_from" timestamp with time zone DEFAULT now() NOT NULL,
	"valid_until" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "signing_keys_one_current_idx" ON "signing_keys" USING btree ((true)) WHERE "signing_keys"."valid_until" is null;