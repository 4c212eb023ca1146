ALTER TABLE "events" ALTER COLUMN "text" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "journal" ALTER COLUMN "change" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "packed" "bytea";--> statement-breakpoint
ALTER TABLE "journal" ADD COLUMN "packed" "bytea";--> statement-breakpoint
ALTER TABLE "ticks" ADD COLUMN "frame_packed" "bytea";--> statement-breakpoint
CREATE INDEX "events_plain" ON "events" USING btree ("created_at") WHERE ("events"."packed" is null) and ("events"."type" <> 'diceRolled') and ("events"."type" <> 'diceSeedRevealed') and ("events"."type" <> 'diceSeedCommitted');--> statement-breakpoint
CREATE INDEX "journal_plain" ON "journal" USING btree ("at") WHERE "journal"."packed" is null;--> statement-breakpoint
CREATE INDEX "ticks_plain_frame" ON "ticks" USING btree ("ran_at") WHERE "ticks"."frame" is not null;