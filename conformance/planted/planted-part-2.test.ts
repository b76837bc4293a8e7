/** Part 2 of the planted matrix (conformance/planted/matrix.ts): every other planted bug, from the second. */
import { describePart } from "./matrix.ts";

describePart(1);
