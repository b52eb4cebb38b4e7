/** The runners × ways to pass off a run matrix (test/support/verification-matrix.ts) for node --test, jest, vitest, mocha. */
import { describeMatrix } from '../support/verification-matrix.js';

describeMatrix(['node --test', 'jest', 'vitest', 'mocha']);
