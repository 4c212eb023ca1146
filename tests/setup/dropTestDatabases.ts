import { afterAll } from 'vitest';
import { dropTestDatabases } from '../support/store.js';

// The postgres project: every test file drops the PostgreSQL databases its tests made (the one
// cluster of the run would hold thousands of harnesses' databases otherwise).
afterAll(() => {
  dropTestDatabases();
});
