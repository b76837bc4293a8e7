/** A wrong command-line value of `dealkit proxy` or `dealkit judge`: the CLI turns it into its usage error. */
export class OptionError extends Error {}
