/** dealkit/client: a typed client for any implementation of the deal-alert API v1. */
export type { DealClient, DealClientOptions } from "./client.ts";
export { createDealClient } from "./client.ts";
export type { Clock } from "./clock.ts";
export { realClock } from "./clock.ts";
export type { Problem } from "./errors.ts";
export { DealApiError } from "./errors.ts";
export type { RatePolicy } from "./pacer.ts";
export { Pacer } from "./pacer.ts";
export type { RetryPolicy } from "./retry.ts";
export { retryAfterSeconds } from "./retry.ts";
export { ratePolicyOf } from "./spec-policy.ts";
