import { afterAll } from 'vitest';
import { removeTestTempDirs } from '../support/tempDirs.js';

// Every test file removes the temporary folders it made (tests/support/tempDirs.ts): a run left
// tens of thousands of scenario output folders in /tmp and filled the disk.
afterAll(() => {
  removeTestTempDirs();
});
