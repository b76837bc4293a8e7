import type { DiffResult } from "../types.ts";
import { formatGithub, type GithubSource } from "./github.ts";
import { formatJson } from "./json.ts";
import { formatMarkdown } from "./markdown.ts";
import { formatText } from "./text.ts";

export const FORMATS = ["text", "markdown", "json", "github"] as const;
export type Format = (typeof FORMATS)[number];

export function format(r: DiffResult, as: Format, source?: GithubSource): string {
  switch (as) {
    case "text":
      return formatText(r);
    case "markdown":
      return formatMarkdown(r);
    case "json":
      return formatJson(r);
    case "github":
      return formatGithub(r, source);
  }
}
