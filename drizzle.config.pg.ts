import { defineConfig } from 'drizzle-kit';

/** PostgreSQL's migrations, generated from src/db/schemaPg.ts (`npm run db:generate` writes both dialects'). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schemaPg.ts',
  out: './migrations-pg',
});
