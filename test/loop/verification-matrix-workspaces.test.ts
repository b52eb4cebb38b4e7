/** The runners × ways to pass off a run matrix (test/support/verification-matrix.ts) for npm workspaces, pnpm workspaces, yarn workspaces. */
import { describeMatrix } from '../support/verification-matrix.js';

describeMatrix(['npm workspaces', 'pnpm workspaces', 'yarn workspaces']);
