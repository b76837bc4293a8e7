/** Part 1 of the planted matrix (conformance/planted/matrix.ts): every other planted bug, from the first. */
import { describePart } from "./matrix.ts";

describePart(0);
