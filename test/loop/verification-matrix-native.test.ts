/** The runners × ways to pass off a run matrix (test/support/verification-matrix.ts) for pytest, cargo, go, make running node --test. */
import { describeMatrix } from '../support/verification-matrix.js';

describeMatrix(['pytest', 'cargo', 'go', 'make running node --test']);
