import type { Spec } from "../spec/spec.ts";

/** The Allow header of OPTIONS and 405 answers (x-methods.allow). */
export const allowHeader = (spec: Spec): string => spec.methods.allow.join(", ");
